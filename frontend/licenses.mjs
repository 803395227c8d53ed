// Writes LICENSES.txt for the vendored files: the licence of every npm
// package whose code ends up in the bundle (read from esbuild's metafile),
// plus KaTeX.  Usage: node licenses.mjs <metafile.json> <output.txt>
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";

const [metafilePath, outPath] = process.argv.slice(2);
const meta = JSON.parse(readFileSync(metafilePath, "utf8"));

const packages = new Set(["katex"]);
for (const input of Object.keys(meta.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.add(m[1]);
}

const sections = [
  "Third-party software in src/codeblanks/web/static/codeblanks/vendor/",
  "",
  "codemirror.bundle.js contains the packages below marked [bundle];",
  "katex/ holds files copied unchanged from the katex package.",
  "math.js is CodeBlanks' own code (see the project LICENSE).",
  "",
];
for (const name of [...packages].sort()) {
  const dir = join("node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  if (!file) throw new Error("no licence file in " + dir);
  const where = name === "katex" ? "katex/" : "bundle";
  sections.push("=".repeat(72));
  sections.push(`${name} ${pkg.version} [${where}]  license: ${pkg.license}`);
  sections.push("=".repeat(72));
  sections.push(readFileSync(join(dir, file), "utf8").trim());
  sections.push("");
}
writeFileSync(outPath, sections.join("\n") + "\n");
console.log(`licences: ${[...packages].sort().join(", ")}`);
