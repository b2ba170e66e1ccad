/** Response bodies in tests are checked field by field, so they are read loosely typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function readJson(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}
