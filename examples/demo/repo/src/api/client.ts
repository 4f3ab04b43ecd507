// The one place that talks to the Acme billing API.
import { withRetry } from './retry';

export interface RequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  requestId: string;
}

export async function request<T>(path: string, opts: RequestOptions): Promise<T> {
  return withRetry(async () => {
    const res = await fetch(`https://billing.acme.invalid${path}`, {
      method: opts.method ?? 'GET',
      headers: { 'content-type': 'application/json', 'x-request-id': opts.requestId },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    if (!res.ok) throw new Error(`billing API ${res.status} for ${opts.requestId}`);
    return (await res.json()) as T;
  });
}
