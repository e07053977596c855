// The `switchboard` CLI. stdout carries only the result (a secret or JSON) for scripts; messages go to
// stderr; any error exits non-zero. A command loads the modules it needs when it runs (`--help` and a
// usage error load none of lib/), and only a command that used the database disconnects from it.
import { Command, InvalidArgumentError } from "commander";

let usedDb = false;
/** Loads a lib/ module for a command that touches the database. */
const lib = <T>(load: () => Promise<T>): Promise<T> => {
  usedDb = true;
  return load();
};

const out = (value: unknown) =>
  process.stdout.write(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
const say = (msg: string) => process.stderr.write(`${msg}\n`);

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError("must be a positive integer");
  return n;
};

const program = new Command()
  .name("switchboard")
  .description("Operator commands for Switchboard. Results on stdout, messages on stderr.")
  .showHelpAfterError()
  .exitOverride();

program
  .command("migrate")
  .description("apply pending database migrations")
  .action(async () => {
    const [{ migrate }, { env }] = await Promise.all([import("@/lib/db/migrate"), import("@/lib/env")]);
    const r = await migrate(env().DATABASE_URL);
    say(
      r.applied.length
        ? `applied ${r.applied.join(", ")} (${r.provider})`
        : `database is up to date (${r.provider})`,
    );
  });

const owner = program.command("owner").description("owner accounts");
owner
  .command("create")
  .requiredOption("--email <email>")
  .requiredOption("--password <password>")
  .option("--name <name>")
  .action(async (o: { email: string; password: string; name?: string }) => {
    const { createOwner } = await lib(() => import("@/lib/domain/owners/create-owner"));
    const user = await createOwner(o);
    say(`owner ${user.email} created`);
    out({ user_id: user.id, email: user.email });
  });

program
  .command("token")
  .description("personal access tokens")
  .command("create")
  .requiredOption("--email <email>")
  .option("--name <name>", "a label for the token", "cli")
  .action(async (o: { email: string; name: string }) => {
    const [{ requireOwnerByEmail }, { createToken }] = await lib(() =>
      Promise.all([import("@/lib/domain/owners/create-owner"), import("@/lib/domain/tokens/tokens")]),
    );
    const user = await requireOwnerByEmail(o.email);
    const t = await createToken(user.id, { name: o.name });
    say(`token ${t.id} created for ${user.email}; it is shown only once`);
    out(t.token);
  });

program
  .command("goal")
  .description("goals")
  .command("create")
  .requiredOption("--email <email>", "the owner")
  .requiredOption("--title <title>")
  .requiredOption("--description <description>")
  .option("--max-spawn-depth <n>", "1-10", positiveInt)
  .action(async (o: { email: string; title: string; description: string; maxSpawnDepth?: number }) => {
    const [{ requireOwnerByEmail }, { createGoal }] = await lib(() =>
      Promise.all([import("@/lib/domain/owners/create-owner"), import("@/lib/domain/goals/create-goal")]),
    );
    const user = await requireOwnerByEmail(o.email);
    out(
      await createGoal(user.id, {
        title: o.title,
        description: o.description,
        max_spawn_depth: o.maxSpawnDepth,
      }),
    );
  });

const agent = program.command("agent").description("agents");
agent
  .command("create")
  .description("register an agent that runs elsewhere; prints {agent_id, api_key}")
  .requiredOption("--goal <goal_id>", "goal id", positiveInt)
  .requiredOption("--name <name>")
  .option("--role <role>", "role", "agent")
  .option("--leader <agent_id>", "leader agent id (default: the goal's coordinator)", positiveInt)
  .action(async (o: { goal: number; name: string; role: string; leader?: number }) => {
    const { registerAgent } = await lib(() => import("@/lib/domain/agents/agents"));
    out(await registerAgent({ goalId: o.goal, name: o.name, role: o.role, leaderId: o.leader }));
    say("the api_key is shown only once");
  });
agent
  .command("key")
  .description("issue a new API key for an agent; prints the key")
  .argument("<agent_id>", "agent id", positiveInt)
  .option("--revoke-others", "revoke the agent's other keys")
  .action(async (agentId: number, o: { revokeOthers?: boolean }) => {
    const { issueAgentKey } = await lib(() => import("@/lib/domain/agents/agents"));
    const { api_key } = await issueAgentKey(agentId, { revokeOthers: Boolean(o.revokeOthers) });
    say(o.revokeOthers ? "new key issued; all earlier keys revoked" : "new key issued");
    out(api_key);
  });

// issue 14: secrets (docs/secrets.md). The value comes from stdin, never from argv (argv is visible in ps).
async function readStdinBytes(): Promise<Buffer> {
  if (process.stdin.isTTY) say("reading the value from stdin; end with Ctrl-D");
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
/** Text from stdin without its one trailing newline. */
const readStdin = async () => (await readStdinBytes()).toString("utf8").replace(/\r?\n$/, "");

const secret = program.command("secret").description("secrets (values are read from stdin)");
secret
  .command("set")
  .description(
    "set or replace a secret; the value is read from stdin; prints {name, scope, scope_id, version}",
  )
  .requiredOption("--scope <scope>", "user | agent | task")
  .requiredOption("--id <id>", "the user, agent or task id", positiveInt)
  .option("--file", "stdin is a file, kept byte for byte (delivered as a 0600 file, $NAME = its path)")
  .argument("<name>", "the secret's name, e.g. STRIPE_API_KEY")
  .action(async (name: string, o: { scope: string; id: number; file?: boolean }) => {
    const value = o.file ? await readStdinBytes() : await readStdin();
    const [{ setSecretAsOperator }, { checkSecretKey }] = await lib(() =>
      Promise.all([import("@/lib/domain/secrets/set-secret"), import("@/lib/domain/secrets/key-check")]),
    );
    await checkSecretKey(); // the server's start check: never a fresh key beside values stored with a lost one
    const r = await setSecretAsOperator({ scope_type: o.scope as "user", scope_id: o.id, name, value });
    out({ name: r.name, scope: r.scope, scope_id: r.scope_id, version: r.version });
  });
secret
  .command("revoke-all")
  .description(
    "erase every stored secret value (the names stay, revoked): the way out when the key is lost; owners supply the values again",
  )
  .option("--yes", "really erase them")
  .action(async (o: { yes?: boolean }) => {
    if (!o.yes) throw new Error("this erases every secret value; run it again with --yes");
    const { revokeAllSecrets } = await lib(() => import("@/lib/domain/secrets/revoke-secret"));
    const r = await revokeAllSecrets();
    say(`${r.revoked} secret values erased; start the server with the key you have now (or a new one)`);
    out(r);
  });
secret
  .command("rotate-key")
  .description(
    "re-encrypt every secret with a new key (with the key file: generated and swapped in; with SWITCHBOARD_SECRET_KEY: the new key is read from stdin); restart the servers afterwards",
  )
  .action(async () => {
    const [{ rotateSecretKey }, { env }] = await lib(() =>
      Promise.all([import("@/lib/domain/secrets/rotate-key"), import("@/lib/env")]),
    );
    const fromEnv = env().SWITCHBOARD_SECRET_KEY !== undefined;
    const r = await rotateSecretKey(fromEnv ? await readStdin() : undefined);
    say(
      fromEnv
        ? `${r.rotated} secrets re-encrypted: set SWITCHBOARD_SECRET_KEY to the new key and restart every server`
        : `${r.rotated} secrets re-encrypted; the key file was replaced: restart every server`,
    );
    out({ rotated: r.rotated });
  });

agent
  .command("restart")
  .description(
    "queue a crashed, exited or stopped runner-managed agent for launch again; prints {agent_id, restarted}",
  )
  .argument("<agent_id>", "agent id", positiveInt)
  .action(async (agentId: number) => {
    const { restartAgent } = await lib(() => import("@/lib/domain/runner/launch-jobs"));
    out(await restartAgent(agentId));
  });

program
  .command("events")
  .description("goal events")
  .command("export")
  .description("write a goal's events as JSON lines (ts, event, task_id, agent_id, team_id, …), oldest first")
  .requiredOption("--goal <goal_id>", "goal id", positiveInt)
  .action(async (o: { goal: number }) => {
    const { exportGoalEvents } = await lib(() => import("@/lib/domain/events/export-events"));
    for await (const e of exportGoalEvents(o.goal)) out(e);
  });

// issue 11: runners (docs/runner.md).
const runner = program.command("runner").description("agent runners");
runner
  .command("start")
  .description("run a runner in this process until SIGINT/SIGTERM (HTTP to the hub only)")
  .option("--hub <url>", "the hub's origin (SWITCHBOARD_RUNNER_HUB)")
  .option("--token <token>", "a runner token sb_runner_… (SWITCHBOARD_RUNNER_TOKEN)")
  .option("--max-agents <n>", "agents run at once (SWITCHBOARD_RUNNER_MAX_AGENTS)", positiveInt)
  .option("--work-dir <dir>", "where agent workspaces are made (SWITCHBOARD_RUNNER_WORK_DIR)")
  .option("--name <name>", "this runner's name on the hub (SWITCHBOARD_RUNNER_ID)")
  .action(
    async (o: { hub?: string; token?: string; maxAgents?: number; workDir?: string; name?: string }) => {
      const { runUntilSignalled } = await import("@/lib/runner/start");
      await runUntilSignalled(o);
    },
  );
const runnerToken = runner.command("token").description("runner tokens");
runnerToken
  .command("create")
  .description("create a runner token (operator-scoped); prints the token")
  .option("--name <name>", "a label", "runner")
  .action(async (o: { name: string }) => {
    const { createRunnerToken } = await lib(() => import("@/lib/domain/runner/tokens"));
    const { id, token } = await createRunnerToken({ name: o.name });
    say(`runner token ${id} created; it is shown only once`);
    out(token);
  });
runnerToken
  .command("revoke")
  .description("revoke a runner token; prints {id, revoked}")
  .argument("<id>", "token id", positiveInt)
  .action(async (id: number) => {
    const { revokeRunnerToken } = await lib(() => import("@/lib/domain/runner/tokens"));
    out(await revokeRunnerToken(id));
  });
runnerToken
  .command("list")
  .description("list runner tokens with each one's last report; prints JSON")
  .action(async () => {
    const { listRunnerTokens } = await lib(() => import("@/lib/domain/runner/tokens"));
    out(await listRunnerTokens());
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  const code = (e as { code?: string }).code;
  if (code === "commander.helpDisplayed" || code === "commander.version") process.exitCode = 0;
  else if (code?.startsWith("commander.")) process.exitCode = 2;
  else {
    const { toDomainError } = await import("@/lib/errors");
    const d = toDomainError(e);
    say(d ? `error: ${d.code}: ${d.message}` : `error: ${(e as Error).message}`);
    process.exitCode = 1;
  }
} finally {
  if (usedDb) await (await import("@/lib/db")).disconnect();
}
