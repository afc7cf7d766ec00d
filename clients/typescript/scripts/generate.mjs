// Writes src/generated/*.ts from the server's schemas: `node scripts/generate.mjs [--url URL] [--check]`.
//
// Sources: openapi/openapi.json and openapi/stream-frames.schema.json (the server's committed
// artefacts), and each game's payload schemas as served at GET /v1/games/{game} (`schemas`), read
// from a running server (`--url`), else from one this script starts (`python -m app`, memory store;
// DRAGO_PYTHON names the interpreter, default ../../.venv/bin/python).
//
// Output: models.ts (the HTTP envelope, `…Out` names without the suffix, and the stream frames),
// one file per game (its View, Action, EventData, Options, Setup and their $defs; the view's `game`
// is the literal game name, so a union of views is discriminated by it), games.ts (unions over the
// games) and api.ts (the `Api` class: one method per operationId). `--check` writes nothing and
// exits 1 if a file differs; test/generated.test.ts does the same against its server.

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { api, game, gamesIndex, models } from "./typescript.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
export const PACKAGE = join(HERE, "..");
export const REPO = join(PACKAGE, "..", "..");
const OUT = join(PACKAGE, "src", "generated");

// -- reading the sources ------------------------------------------------------------------------

export async function loadSources(url) {
  const read = (name) => JSON.parse(readFileSync(join(REPO, "openapi", name), "utf8"));
  const get = async (path) => {
    const response = await fetch(url + path);
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
    return response.json();
  };
  const games = {};
  const listing = await get("/v1/games");
  for (const name of listing.items.map((g) => g.name).sort()) games[name] = (await get(`/v1/games/${name}`)).schemas;
  return { openapi: read("openapi.json"), frames: read("stream-frames.schema.json"), games };
}

// -- the whole ------------------------------------------------------------------------------------

export function generate(sources) {
  const files = { "models.ts": models(sources), "games.ts": gamesIndex(Object.keys(sources.games)) };
  for (const [name, schemas] of Object.entries(sources.games)) files[`${name}.ts`] = game(name, schemas);
  files["api.ts"] = api(sources.openapi);
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [join(OUT, name), text]));
}

export function stale(files) {
  return Object.entries(files)
    .filter(([path, text]) => {
      try {
        return readFileSync(path, "utf8") !== text;
      } catch {
        return true;
      }
    })
    .map(([path]) => path);
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway server (memory store) for the duration of `work(url)`. */
async function withServer(work) {
  const port = await freePort();
  const python = process.env.DRAGO_PYTHON ?? join(REPO, ".venv", "bin", "python");
  const env = { ...process.env, DRAGO_DATABASE_URL: "memory://", DRAGO_HOST: "127.0.0.1", DRAGO_PORT: String(port), DRAGO_LOG_LEVEL: "WARNING", DRAGO_RATE_LIMIT_ENABLED: "0" };
  const child = spawn(python, ["-m", "app"], { cwd: REPO, env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${url}/readyz`)).ok) break;
      } catch {
        if (i > 600) throw new Error("the server did not start");
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return await work(url);
  } finally {
    child.kill("SIGTERM");
  }
}

async function main(argv) {
  const at = argv.indexOf("--url");
  const url = at >= 0 ? argv[at + 1] : null;
  const files = generate(url ? await loadSources(url) : await withServer(loadSources));
  const changed = stale(files);
  if (argv.includes("--check")) {
    for (const path of changed) console.log(`stale: ${path} (regenerate: npm run generate)`);
    return changed.length ? 1 : 0;
  }
  mkdirSync(OUT, { recursive: true });
  for (const path of changed) {
    writeFileSync(path, files[path]);
    console.log(`wrote ${path}`);
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
