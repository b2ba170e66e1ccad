/**
 * The web app's runtime configuration. This is the only module that reads `process.env`, and it is
 * only imported by server components, so values are read per request rather than inlined at build.
 */
export interface WebEnv {
  /** Base URL of the Lumina HTTP API, without a trailing slash. */
  apiUrl: string;
}

export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

type EnvSource = Readonly<Record<string, string | undefined>>;

/** Reads and validates the environment; throws a readable error for a malformed value. */
export function readWebEnv(source: EnvSource = process.env): WebEnv {
  const raw = source.LUMINA_API_URL?.trim();
  return { apiUrl: normaliseApiUrl(raw ? raw : DEFAULT_API_URL) };
}

function normaliseApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`LUMINA_API_URL must be an absolute URL such as ${DEFAULT_API_URL}; got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`LUMINA_API_URL must use http or https; got "${value}".`);
  }
  return url.toString().replace(/\/+$/, '');
}
