// Console output for the scripts: one clear line per problem, the stack only with DEBUG=1.
export function info(line: string): void {
  console.log(`[toolemu] ${line}`);
}

export function errorLine(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function fail(e: unknown): void {
  console.error(`[toolemu] error: ${errorLine(e)}`);
  if (process.env.DEBUG && e instanceof Error && e.stack) console.error(e.stack);
}
