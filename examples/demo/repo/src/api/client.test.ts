import { describe, it } from 'vitest';

describe('request', () => {
  it('sends X-Request-Id', async () => {
    // uses msw to capture the header
  });
});
