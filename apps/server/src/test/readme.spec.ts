import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_KEYS } from '../config/env.schema';

const readme = readFileSync(join(__dirname, '../../../../README.md'), 'utf8');

describe('README.md stays true', () => {
  it('documents every variable of the env schema, and no variable the schema lacks', () => {
    const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    const serverOnly = documented.filter((name) => name !== 'LUMINA_API_URL');
    expect([...serverOnly].sort()).toEqual([...ENV_KEYS].sort());
  });

  it('gives the two set-up commands', () => {
    expect(readme).toMatch(/npm install && npm start/);
    expect(readme).toMatch(/^npm test\b/m);
  });
});
