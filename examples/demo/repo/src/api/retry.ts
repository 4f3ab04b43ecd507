// Exponential backoff with jitter; at most 3 attempts.
export async function withRetry<T>(call: () => Promise<T>, attempts = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await call();
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 2 ** i * 100 + Math.random() * 100));
    }
  }
  throw last;
}
