import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expansionProbePolicy } from '@lumina/rag';
import { SHIPPED_MODELS_DIR } from '../../config/model-file';
import { expansionPolicyFor } from './expansion-policy.loader';

describe('expansionPolicyFor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-expansion-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('decides with the policy the project ships, as stored in models/', () => {
    const shipped: unknown = JSON.parse(
      readFileSync(join(SHIPPED_MODELS_DIR, 'adaptive-scifact-v1.json'), 'utf8'),
    );
    expect(expansionPolicyFor({ EXPANSION_POLICY_FILE: undefined })).toEqual(shipped);
  });

  it("lets an installation's own policy file, or off, decide instead", () => {
    const file = join(dir, 'policy.json');
    const own = { ...expansionProbePolicy(), version: 'own-bank-v1', threshold: 0.7 };
    writeFileSync(file, JSON.stringify(own));
    expect(expansionPolicyFor({ EXPANSION_POLICY_FILE: file })).toEqual(own);
    expect(expansionPolicyFor({ EXPANSION_POLICY_FILE: 'off' })).toBeNull();
  });
});
