/**
 * A stand-in for the Australian Business Register on a local port: its JSONP answer for an active ABN registered for
 * GST, whatever ABN is asked. For tests that need `POST /calculator/abn-lookup` to succeed (pass `url` as the app's
 * `abnLookupUrl`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AbnRegisterStandIn {
  url: string;
  close(): Promise<void>;
}

export async function startAbnRegisterStandIn(): Promise<AbnRegisterStandIn> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://register');
    const callback = url.searchParams.get('callback') ?? 'c';
    const found = {
      Abn: url.searchParams.get('abn'),
      AbnStatus: 'Active',
      AbnStatusEffectiveFrom: '2000-02-22',
      Acn: '',
      AddressDate: '2018-11-05',
      AddressPostcode: '2600',
      AddressState: 'ACT',
      BusinessName: ['TAX HQ'],
      EntityName: 'AUSTRALIAN TAXATION OFFICE',
      EntityTypeCode: 'CGE',
      EntityTypeName: 'Commonwealth Government Entity',
      Gst: '2000-07-01',
      Message: '',
    };
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(`${callback}(${JSON.stringify(found)})`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
