// `npm run cli -- <command>`: the command line over the same core as the web app.
import { createInterface } from "node:readline";
import { connectClient } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { openDatabase, type OpenedDatabase } from "@/lib/db/open";
import { createPrisma } from "@/lib/db/client";
import { seedDemoUsers, DEMO_USERS } from "@/lib/seed/demo-users";
import { createUser } from "@/lib/users/manage";
import { createUserSchema } from "@/lib/users/schemas";
import { runImport } from "@/lib/toolemu/import";
import { runSageImport, sageReportText } from "@/lib/sage/import";
import { reportText } from "@/lib/toolemu/report-text";
import { parseJsonlName } from "@/lib/toolemu/file-names";
import { collectFiles } from "@/lib/toolemu/read";
import { parseArgs, stringFlag, type Args } from "./lib/args";
import { progressBar } from "./lib/progress";
import { fail, info } from "./lib/output";
import { RUN_HELP, runControl, runCreate, runStatus } from "./lib/run-commands";
import { EVAL_HELP, evalCreate } from "./lib/eval-commands";
import { SAGE_HELP, sageJudge, sagePlay } from "./lib/sage-commands";
import { SAGE_RUN_HELP, sageRunCommand } from "./lib/sage-run-command";

const HELP = `ToolEmu Studio command line

  npm run cli -- user create --email E --name N [--role ADMIN|RESEARCHER|PI|ANNOTATOR] [--password P]
      Create a user (default role ADMIN: the first admin of a real deployment). Without
      --password it is asked for on the terminal, or read from TOOLEMU_PASSWORD.
  npm run cli -- import <files or folders…> [--dry-run] [--yes] [--agent A] [--emulator E] [--evaluator V]
      Import ToolEmu toolkits (JSON), cases (JSON) and trajectory JSONL files with their
      _eval_agent_safe / _eval_agent_help_ignore_safety companions. Validates everything first;
      writes nothing unless all of it is valid (one transaction). --dry-run only reports;
      --yes confirms changes to existing records; the model flags replace the names read from
      the file names. Exits non-zero on any problem.
  npm run cli -- import sage <files or folders…> [--dry-run] [--yes]
      Import ForesightSafety-SAGE family definitions (data/families/…) and scenario files
      (seeds.json, benchmark.json, generation_selected_60*.json; a folder such as the release's
      root or data/ is searched for them). Same rules: located errors, one transaction,
      re-importing changes nothing, --yes confirms changed scenarios or families.
  npm run cli -- db migrate [--retry <migration>]
      Apply pending migrations. --retry re-runs a migration that failed earlier, after you fixed it.
  npm run cli -- db seed --demo
      Create the demo users (one per role, public passwords). Never on a shared deployment.
${RUN_HELP}
${EVAL_HELP}
${SAGE_HELP}
${SAGE_RUN_HELP}

Database: DATABASE_URL if set; otherwise the embedded database in .data/ (shared with a running
\`npm start\`, or opened by this command alone).`;

async function withDb<T>(fn: (db: OpenedDatabase) => Promise<T>): Promise<T> {
  const opened = await openDatabase();
  try {
    const client = await connectClient(opened.url);
    try {
      await migrate(client); // a command never runs on an outdated schema
    } finally {
      await client.end();
    }
    return await fn(opened);
  } finally {
    await opened.close();
  }
}

async function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  let prompted = false;
  out._writeToOutput = (s: string) => {
    if (!prompted) {
      out.output.write(s);
      prompted = true;
    }
  };
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
  rl.close();
  process.stdout.write("\n");
  return answer;
}

async function userCreate(args: Args) {
  let password = stringFlag(args, "password") ?? process.env.TOOLEMU_PASSWORD;
  if (!password && process.stdin.isTTY) password = await askHidden("Password: ");
  const parsed = createUserSchema.safeParse({
    email: stringFlag(args, "email") ?? "",
    name: stringFlag(args, "name") ?? "",
    role: stringFlag(args, "role") ?? "ADMIN",
    password: password ?? "",
  });
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("; "));
  }
  await withDb(async ({ url }) => {
    const prisma = createPrisma(url);
    try {
      const user = await createUser(prisma, null, parsed.data);
      info(`Created ${user.role} ${user.email}.`);
    } finally {
      await prisma.$disconnect();
    }
  });
}

async function dbMigrate(args: Args) {
  const opened = await openDatabase();
  try {
    const client = await connectClient(opened.url);
    try {
      const res = await migrate(client, { retryFailed: stringFlag(args, "retry"), log: info });
      info(res.applied.length ? `Applied ${res.applied.length} migration(s).` : `Database is up to date (${res.alreadyApplied} migrations).`);
    } finally {
      await client.end();
    }
  } finally {
    await opened.close();
  }
}

async function dbSeed(args: Args) {
  if (!args.flags.demo) throw new Error("Say what to seed: `npm run db:seed -- --demo` creates the demo users.");
  await withDb(async ({ url }) => {
    const prisma = createPrisma(url);
    try {
      const n = await seedDemoUsers(prisma);
      info(`Created ${n} demo user(s); ${DEMO_USERS.length - n} existed already.`);
      for (const u of DEMO_USERS) info(`  ${u.role.padEnd(11)} ${u.email.padEnd(24)} ${u.password}`);
    } finally {
      await prisma.$disconnect();
    }
  });
}

async function importSageCommand(args: Args) {
  const paths = args.positional.slice(2);
  if (!paths.length) throw new Error("Name the SAGE files or folders to import: npm run cli -- import sage <paths…>");
  const result = await withDb(async ({ url }) => {
    const prisma = createPrisma(url);
    try {
      return await runSageImport(prisma, paths, { dryRun: !!args.flags["dry-run"], acceptChanges: !!args.flags.yes });
    } finally {
      await prisma.$disconnect();
    }
  });
  const lines = sageReportText(result.report);
  if (result.written) lines.push(`Written: ${result.written.families} family definition(s), ${result.written.scenarios} scenario(s).`);
  else if (!result.report.issues.length && result.changes.length && !args.flags["dry-run"]) lines.push(`Not written: this import changes ${result.changes.join("; ")}. Run again with --yes to apply.`);
  else if (args.flags["dry-run"] && !result.report.issues.length) lines.push("Dry run: nothing was written.");
  console.log(lines.join("\n"));
  if (result.report.issues.length || (result.changes.length && !args.flags.yes && !args.flags["dry-run"])) process.exitCode = 1;
}

async function importCommand(args: Args) {
  if (args.positional[1] === "sage") return importSageCommand(args);
  const paths = args.positional.slice(1);
  if (!paths.length) throw new Error("Name the files or folders to import: npm run cli -- import <paths…>");
  const labels = { agentModel: stringFlag(args, "agent"), emulatorModel: stringFlag(args, "emulator"), evaluatorModel: stringFlag(args, "evaluator") };
  const overrides: Record<string, typeof labels> = {};
  for (const f of collectFiles(paths).files) overrides[parseJsonlName(f.path).prefix] = labels;
  const bar = progressBar();
  const result = await withDb(async ({ url }) => {
    const prisma = createPrisma(url);
    try {
      return await runImport(prisma, paths, {
        dryRun: !!args.flags["dry-run"],
        acceptChanges: !!args.flags.yes,
        overrides,
        onProgress: (p) => bar.update(p.bytesDone / Math.max(1, p.bytesTotal), `${p.phase} ${p.file}`),
      });
    } finally {
      bar.done();
      await prisma.$disconnect();
    }
  });
  console.log(reportText(result.report, result.written, result.changes));
  if (result.report.issues.length || (result.changes.length && !args.flags.yes && !args.flags["dry-run"])) process.exitCode = 1;
}

async function runCommand(args: Args) {
  const command = args.positional[1];
  if (!command || command === "help" || args.flags.help) return console.log(RUN_HELP);
  await withDb(async ({ url }) => {
    if (command === "create") return runCreate(url, args);
    if (command === "status" || command === "list") return runStatus(url, args);
    if (command === "cancel" || command === "pause" || command === "resume" || command === "retry") return runControl(url, command, args);
    throw new Error(`Unknown command "run ${command}". Run \`npm run cli -- run help\`.`);
  });
}

async function evalCommand(args: Args) {
  const command = args.positional[1];
  if (!command || command === "help" || args.flags.help) return console.log(EVAL_HELP);
  await withDb(async ({ url }) => {
    if (command === "create") return evalCreate(url, args);
    if (command === "status" || command === "list") return runStatus(url, args);
    if (command === "watch") return runStatus(url, { ...args, flags: { ...args.flags, watch: true } });
    if (command === "cancel" || command === "pause" || command === "resume" || command === "retry") return runControl(url, command, args);
    throw new Error(`Unknown command "eval ${command}". Run \`npm run cli -- eval help\`.`);
  });
}

async function sageCommand(args: Args) {
  const command = args.positional[1];
  if (!command || command === "help" || args.flags.help) return console.log(`${SAGE_HELP}\n${SAGE_RUN_HELP}`);
  if (command !== "play" && command !== "judge" && command !== "run") throw new Error(`Unknown command "sage ${command}". Run \`npm run cli -- sage help\`.`);
  await withDb(({ url }) => (command === "play" ? sagePlay(url, args) : command === "run" ? sageRunCommand(url, args) : sageJudge(url, args)));
}

async function main(argv: string[]) {
  const args = parseArgs(argv);
  const [group, command] = args.positional;
  if (group === "import") return importCommand(args);
  if (group === "run") return runCommand(args);
  if (group === "eval") return evalCommand(args);
  if (group === "sage") return sageCommand(args);
  const key = `${group ?? ""} ${command ?? ""}`.trim();
  switch (key) {
    case "user create":
      return userCreate(args);
    case "db migrate":
      return dbMigrate(args);
    case "db seed":
      return dbSeed(args);
    case "":
    case "help":
      console.log(HELP);
      return;
    default:
      throw new Error(`Unknown command "${key}". Run \`npm run cli -- help\`.`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    fail(e);
    process.exit(1);
  },
);
