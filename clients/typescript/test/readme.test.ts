/** The TypeScript examples of the READMEs type-check (strict) against this package's sources. */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { PACKAGE, REPO } from "./server.js";

test("the README examples type-check", () => {
  const dir = join(PACKAGE, "build", "readme");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  const sources = [join(PACKAGE, "README.md"), join(REPO, "README.md")];
  let blocks = sources.flatMap((path) => [...readFileSync(path, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!));
  // The TypeScript README's examples follow on from each other: they are one program.
  blocks = [blocks.slice(0, -1).join("\n"), blocks.at(-1)!].filter((b) => b.includes("drago-client"));
  blocks.forEach((block, i) => {
    const file = join(dir, `example${i}.ts`);
    writeFileSync(file, block.replaceAll('from "drago-client"', 'from "../../src/index.js"') + "\nexport {};\n");
    files.push(file);
  });
  assert.ok(files.length >= 2);
  const tsc = join(PACKAGE, "node_modules", "typescript", "bin", "tsc");
  const options = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--lib", "es2022,dom", "--skipLibCheck", "--types", "node"];
  try {
    execFileSync(process.execPath, [tsc, ...options, ...files], { cwd: PACKAGE, encoding: "utf8" });
  } catch (error) {
    assert.fail(String((error as { stdout?: string }).stdout ?? error));
  }
});
