/**
 * A real server for the tests: `python -m app` (the container's command) from the repository's
 * virtual environment (`DRAGO_PYTHON` to use another interpreter), on a free loopback port, with the
 * memory store or a temporary SQLite file. `restart()` stops it with SIGTERM (streams close with
 * 1001) and starts it again on the same port and database.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const REPO = join(PACKAGE, "..", "..");
export const PYTHON = process.env.DRAGO_PYTHON ?? join(REPO, ".venv", "bin", "python");
const GUARD_MS = 60_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export class ServerProcess {
  private child: ChildProcess | null = null;
  private output = "";
  starts = 0;

  private constructor(
    readonly port: number,
    readonly databaseUrl: string,
    private readonly dir: string | null,
  ) {}

  /** A started server; `sqlite` keeps its matches across restarts. */
  static async start(store: "memory" | "sqlite" = "memory"): Promise<ServerProcess> {
    const dir = store === "sqlite" ? mkdtempSync(join(tmpdir(), "drago-ts-")) : null;
    const url = dir ? `sqlite+aiosqlite:///${join(dir, "drago.db")}` : "memory://";
    const server = new ServerProcess(await freePort(), url, dir);
    await server.start();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined && !name.startsWith("DRAGO_") && name !== "DATABASE_URL") env[name] = value;
    }
    Object.assign(env, {
      DRAGO_DATABASE_URL: this.databaseUrl,
      DRAGO_HOST: "127.0.0.1",
      DRAGO_PORT: String(this.port),
      DRAGO_LOG_LEVEL: "WARNING",
      DRAGO_DEV_FEATURES: "1",
      DRAGO_RATE_LIMIT_ENABLED: "0", // the tests play at machine speed from one address
    });
    const child = spawn(PYTHON, ["-m", "app"], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4000)));
    child.stderr?.on("data", (d: Buffer) => (this.output = (this.output + d.toString()).slice(-4000)));
    this.child = child;
    this.starts += 1;
    const deadline = Date.now() + GUARD_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${this.output}`);
      try {
        if ((await fetch(`${this.url}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the server did not start:\n${this.output}`);
  }

  /** SIGTERM, as a deployment stops a process, and wait for the exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), GUARD_MS);
    await exited;
    clearTimeout(timer);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
