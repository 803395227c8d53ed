#!/bin/sh
# Rebuild the vendored front-end files of CodeBlanks.
# Needs Node 20+ and npm; the outputs are committed, so nobody installing
# or running CodeBlanks needs this.  Run from anywhere: sh frontend/build.sh
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out="$here/../src/codeblanks/web/static/codeblanks/vendor"
cd "$here"

npm ci --no-audit --no-fund

mkdir -p "$out"
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT

# One minified classic script (IIFE) that sets window.CodeBlanksEditor.
./node_modules/.bin/esbuild editor.js \
  --bundle \
  --format=iife \
  --minify \
  --target=es2020 \
  --legal-comments=none \
  --metafile="$meta" \
  --outfile="$out/codemirror.bundle.js"

# KaTeX, copied unchanged (every font file: the stylesheet refers to all
# of them and a manifest-based collectstatic fails on a missing one).
rm -rf "$out/katex"
mkdir -p "$out/katex/fonts" "$out/katex/contrib"
cp node_modules/katex/dist/katex.min.js node_modules/katex/dist/katex.min.css "$out/katex/"
cp node_modules/katex/dist/fonts/* "$out/katex/fonts/"
cp node_modules/katex/dist/contrib/auto-render.min.js "$out/katex/contrib/"

# Our own glue for the server-rendered math elements.
cp math.js "$out/math.js"

node licenses.mjs "$meta" "$out/LICENSES.txt"

# axe-core, for the accessibility checks of the browser tests only (never served to learners):
# copied unchanged beside those tests, with its licence (MPL-2.0).
tests="$here/../tests/browser/vendor"
mkdir -p "$tests"
cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE "$tests/"

ls -l "$out/codemirror.bundle.js"
printf 'gzipped: %s bytes\n' "$(gzip -9 -n -c "$out/codemirror.bundle.js" | wc -c)"
