// The network of the fresh-machine check (scripts/ci/fresh-machine.sh): the install runs in a
// network namespace with only a loopback device, so every host is unreachable except through
// this proxy, and the proxy tunnels only to the npm registry. Two halves joined by a Unix socket
// (sockets on the file system cross network namespaces):
//   serve  --socket S --allow host[,host…]   outside: HTTP CONNECT proxy, refuses other hosts (403)
//   bridge --socket S --port P               inside: 127.0.0.1:P piped to S, for npm's https-proxy
// Refused hosts are printed, so the log shows what the install tried to reach.
import net from 'node:net';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { socket: { type: 'string' }, allow: { type: 'string', default: '' }, port: { type: 'string' } },
});
const [mode] = positionals;
if (!values.socket || (mode !== 'serve' && mode !== 'bridge')) {
  process.stderr.write('usage: registryOnlyProxy.mjs serve --socket S --allow hosts | bridge --socket S --port P\n');
  process.exit(2);
}

/** Reads the CONNECT request head, then tunnels to an allowed host:443 or answers 403. */
function serveConnect(client, allowed) {
  let head = '';
  const onData = (chunk) => {
    head += chunk.toString('latin1');
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 8192) client.destroy();
      return;
    }
    client.off('data', onData);
    const [method, target] = head.split(' ', 2);
    const [host, portText] = (target ?? '').split(':');
    const port = Number(portText || 443);
    if (method !== 'CONNECT' || !allowed.has(host) || port !== 443) {
      process.stderr.write(`registry-only proxy: refused ${method} ${target}\n`);
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const rest = head.slice(end + 4);
      if (rest) upstream.write(Buffer.from(rest, 'latin1'));
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  };
  client.on('data', onData);
}

if (mode === 'serve') {
  const allowed = new Set(values.allow.split(',').filter(Boolean));
  rmSync(values.socket, { force: true });
  net.createServer((client) => serveConnect(client, allowed)).listen(values.socket, () => {
    process.stdout.write(`registry-only proxy: allowing ${[...allowed].join(', ')}\n`);
  });
} else {
  const port = Number(values.port);
  net
    .createServer((client) => {
      const upstream = net.connect(values.socket);
      client.pipe(upstream).pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    })
    .listen(port, '127.0.0.1');
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
