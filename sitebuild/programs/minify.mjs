// esbuild (its WebAssembly package, unpacked by sitebuild/minify.py) minifies our scripts and
// style sheets. Arguments: esbuild's lib/main.js, a JSON file of [source, target, options] jobs.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
const [esbuildMain, jobs] = process.argv.slice(2);
const esbuild = createRequire(import.meta.url)(esbuildMain);
const failed = [];
await Promise.all(JSON.parse(readFileSync(jobs, "utf8")).map(async ([source, target, options]) => {
  try {
    const { code, warnings } = await esbuild.transform(readFileSync(source, "utf8"), options);
    // A warning is a fault in our file (CSS whose block is never closed, a typeof compared
    // with a misspelt type...) that esbuild works around: fail, as for an error.
    for (const { text, location: at } of warnings) failed.push(`${at.file}:${at.line}:${at.column}: ${text}`);
    writeFileSync(target, code);
  } catch (err) {
    failed.push(err.message);
  }
}));
if (failed.length) {
  console.error(failed.join("\n"));
  process.exit(1);
}
