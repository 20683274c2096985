import net from "node:net";

export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** The first free port from `start` on (at most 50 tried). */
export async function findFreePort(start: number, host?: string): Promise<number | null> {
  for (let p = start; p < start + 50; p++) if (await isPortFree(p, host)) return p;
  return null;
}
