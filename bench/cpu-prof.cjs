// CPU-profile the process it is preloaded into; writes <CPU_PROF_DIR>/server-<pid>.cpuprofile when the
// process exits (a SIGTERM that Next turns into process.exit counts; SIGKILL does not). Node 20 refuses
// --cpu-prof in NODE_OPTIONS, hence: NODE_OPTIONS="--require bench/cpu-prof.cjs" CPU_PROF_DIR=dir.
const fs = require("node:fs");
const inspector = require("node:inspector");
const path = require("node:path");

const dir = process.env.CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: Number(process.env.CPU_PROF_INTERVAL_US ?? 500) });
  session.post("Profiler.start");
  process.on("exit", () => {
    // The main-thread session answers synchronously, so this completes inside the exit handler.
    session.post("Profiler.stop", (err, res) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
