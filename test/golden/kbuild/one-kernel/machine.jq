# What depends on the machine (the toolkit's version, its path, the time a
# compile took, the bytes nvcc wrote) is replaced by a fixed value; the
# sections kbuild only passes through are dropped.
del(.scan, .slice, .wrap)
| (.build.reference, .build.harness) |= (.seconds = 0 | .version = "-"
    | .command = "-" | .artifact = ("0" * 64))
