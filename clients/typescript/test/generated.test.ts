/** The generated types and routes are current: generating them again from the server's schemas (as
 * a real server serves them) changes nothing. Regenerate with `npm run generate`. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { PACKAGE, ServerProcess } from "./server.js";

interface Generator {
  loadSources(url: string): Promise<unknown>;
  generate(sources: unknown): Record<string, string>;
  stale(files: Record<string, string>): string[];
}

test("src/generated is what scripts/generate.mjs writes from the served schemas", async () => {
  const generator = (await import(pathToFileURL(join(PACKAGE, "scripts", "generate.mjs")).href)) as Generator;
  const server = await ServerProcess.start("memory");
  try {
    const files = generator.generate(await generator.loadSources(server.url));
    assert.ok(Object.keys(files).length >= 5);
    assert.deepEqual(generator.stale(files), [], "stale generated files: run `npm run generate`");
  } finally {
    await server.close();
  }
});
