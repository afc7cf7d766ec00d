// Bundles src/main.ts (and the TypeScript client it imports from ../clients/typescript/src, through
// the "drago-client" path of tsconfig.json) into one ES module, and copies public/: the output is
// the committed directory app/web/static/ (or `--out DIR`, which the staleness test uses).
// The output depends only on the sources and the locked esbuild: no hashes, dates or source maps.
import { build } from "esbuild";
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const flag = process.argv.indexOf("--out");
const out = resolve(flag >= 0 ? process.argv[flag + 1] : join(here, "..", "app", "web", "static"));

mkdirSync(out, { recursive: true });
for (const name of readdirSync(out)) rmSync(join(out, name), { recursive: true, force: true });

await build({
  absWorkingDir: here,
  entryPoints: ["src/main.ts"],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "esm",
  target: ["chrome120", "firefox120"],
  tsconfig: "tsconfig.json",
  legalComments: "none",
  charset: "utf8",
  minify: false,
  logLevel: "warning",
});
cpSync(join(here, "public"), out, { recursive: true });
