import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, type TestClient } from '@/test/support/emulator';
import { personas, type Emulator } from '..';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(): Emulator {
  return createTestEmulator({ clients: [client] });
}

describe('GET /portraits/<id>.jpg', () => {
  it('serves each persona portrait as a JPEG', async () => {
    const emulator = newEmulator();
    for (const persona of personas) {
      const response = await emulator.handle(new Request(`${TEST_BASE_URL}/portraits/${persona.id}.jpg`));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    }
  });

  it.each(['/portraits/nobody.jpg', '/portraits/..%2F..%2Fpackage.json', '/portraits/../index.ts', '/portraits/ingrid-haugen.png'])(
    'answers 404 for %s',
    async (path) => {
      const response = await newEmulator().handle(new Request(`${TEST_BASE_URL}${path}`));
      expect(response.status).toBe(404);
    },
  );
});
