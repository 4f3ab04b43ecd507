export function health(): { ok: true } {
  return { ok: true };
}
