# A verify section for an example record of kwrap, as kverify would write
# it on a GPU: a golden per case (every output 16 bytes, the bytes of blob
# K of $h[0] for case K), verified, deterministic, a tolerance band of 0.5
# on every output and a mutation score.
.verify = {
  cases: (.wrap.spec.cases | length),
  golden: [range(.wrap.spec.cases | length) as $k | {
    case: $k,
    outputs: [.wrap.spec.params[] | select(.role == "out" or .role == "inout") |
      {name, type: .dtype, count: 4, bytes: 16, hash: $h[0][$k]}]
  }],
  deterministic: true,
  tolerance: {k: 4, outputs: [.wrap.spec.params[] |
    select(.role == "out" or .role == "inout") |
    {name, spread: 0, atol: 0.5, rtol: 0.0001, banded: false}]},
  verified: {value: true, reason: null, detail: null, memcheck: true},
  mutation: {tried: 10, killed: 9, survived: 1, equivalent: 0, stillborn: 0,
    score: 0.9, killed_by: {}, survivors: [], mutants: []}
}
