// A small round-robin TCP proxy for the scale-out benchmark (bench/mcp-load.mts --instances 2):
//   node bench/tcp-proxy.mjs <listen-port> <host:port> [<host:port> …]
// Each accepted connection goes to the next target in turn and is piped both ways (HTTP keep-alive
// connections therefore stay on one instance; /mcp is stateless, so any instance serves any request).
// Prints "ready <port>" on stdout once listening. Loopback only.
import net from "node:net";

const [port, ...targets] = process.argv.slice(2);
if (!port || targets.length === 0) {
  console.error("usage: node bench/tcp-proxy.mjs <listen-port> <host:port> [<host:port> …]");
  process.exit(2);
}
const upstreams = targets.map((t) => {
  const i = t.lastIndexOf(":");
  return { host: t.slice(0, i), port: Number(t.slice(i + 1)) };
});
let next = 0;
const server = net.createServer((down) => {
  const target = upstreams[next++ % upstreams.length];
  const up = net.connect(target);
  down.setNoDelay(true);
  up.setNoDelay(true);
  down.pipe(up);
  up.pipe(down);
  const close = () => {
    down.destroy();
    up.destroy();
  };
  down.on("error", close);
  up.on("error", close);
  down.on("close", close);
  up.on("close", close);
});
server.listen(Number(port), "127.0.0.1", () => console.log(`ready ${server.address().port}`));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
