#!/bin/sh
# Turn a text file into a C string constant: embed.sh NAME FILE
set -eu
printf '/* generated from %s by mk/embed.sh; do not edit */\n' "$2"
printf 'const char %s[] =\n' "$1"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$2"
printf ';\n'
