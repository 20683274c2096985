// A one-line progress bar on a terminal; silent when output is piped (CI logs stay readable).
export function progressBar(width = 30) {
  const tty = process.stderr.isTTY;
  let last = "";
  return {
    update(fraction: number, label: string) {
      if (!tty) return;
      const f = Math.max(0, Math.min(1, fraction));
      const filled = Math.round(f * width);
      const line = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(f * 100).toFixed(0).padStart(3)}% ${label}`.slice(0, (process.stderr.columns || 100) - 1);
      if (line !== last) process.stderr.write(`\r${line.padEnd(last.length)}`);
      last = line;
    },
    done() {
      if (tty && last) process.stderr.write(`\r${" ".repeat(last.length)}\r`);
      last = "";
    },
  };
}
