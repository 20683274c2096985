// docker-compose.yml: still valid for Debian's docker-compose (1.29), and the offline model is a
// service of its own on the compose network, which the app registers and the worker can reach.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const compose = spawnSync("docker-compose", ["version", "--short"], { encoding: "utf8" });
const available = compose.status === 0;

describe.skipIf(!available)("docker-compose.yml (docker-compose config)", () => {
  it("validates, and runs the offline model as its own service reachable from app and worker", () => {
    const res = spawnSync("docker-compose", ["config"], { encoding: "utf8", env: { ...process.env, NEXTAUTH_SECRET: "compose-test" } });
    expect(res.stderr.trim()).toBe("");
    expect(res.status).toBe(0);
    const services = [...res.stdout.matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
    expect(services).toEqual(expect.arrayContaining(["app", "worker", "postgres", "offline-llm"]));
    // Bound to the container's interfaces (not its own 127.0.0.1), and the app points at the service name.
    expect(res.stdout).toMatch(/offline-llm:\n(?:.*\n)*? {6}OFFLINE_LLM_HOST: 0\.0\.0\.0/);
    expect(res.stdout).toContain("OFFLINE_LLM_URL: http://offline-llm:11435/v1");
    expect(res.stdout).toMatch(/- llm:offline/);
  });
});
