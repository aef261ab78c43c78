/**
 * A TCP proxy of the tests' own (node:net on 127.0.0.1) between the app and PostgreSQL, to break the database the
 * ways production sees it: 'forward' (healthy), 'silent' (accepts, forwards nothing either way: a hung database or a
 * black-holed network), 'refuse' (listener closed and every open connection destroyed: a database that went away).
 */
import net from 'node:net';

export type ProxyMode = 'forward' | 'silent' | 'refuse';

export interface TcpProxy {
  port: number;
  mode(): ProxyMode;
  set(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    // Data is dropped, not buffered, while silent: what was sent into a black hole never arrives.
    client.on('data', (d) => {
      if (mode === 'forward') upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (mode === 'forward') client.write(d);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    mode: () => mode,
    set: async (next) => {
      if (next === mode) return;
      if (mode === 'refuse')
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
      mode = next;
      if (next === 'refuse') {
        const closed = new Promise((resolve) => server.close(resolve));
        for (const s of sockets) s.destroy();
        await closed;
      }
      // 'silent' keeps the existing connections open and mute; the ones a silent phase broke mid-protocol cannot
      // resume, so they are dropped when it ends (as a network path that recovers would reset them).
      if (next === 'forward') for (const s of sockets) s.destroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      if (mode !== 'refuse') await new Promise((resolve) => server.close(resolve));
    },
  };
}
