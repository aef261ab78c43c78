/** Raw GraphQL over HTTP for the limits tests: the status and the body's size matter here, not just the data. */
import type { TestApp } from '../../testkit/app.ts';

export interface GraphQLReply {
  status: number;
  body: any;
  bytes: number;
  headers: Headers;
}

export async function post(
  t: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  headers: Record<string, string> = {},
): Promise<GraphQLReply> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body, bytes: Buffer.byteLength(text), headers: res.headers };
}

/** A demo deal every demo catalogue prices (asset 11 is on every demo card). */
export const DEAL = {
  cost: 55000,
  cost_gst: true,
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
};

export const messages = (reply: GraphQLReply): string[] =>
  (reply.body?.errors ?? []).map((e: { message: string }) => e.message);
