/** GET /health, parsed with its contract schema: a degraded server still answers (503) with its report. */
import { healthReportSchema } from '@lumina/shared';
import type { HealthReport } from '@lumina/shared';
import { httpError, invalidResponseError } from '../api-errors';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import type { RequestOptions, Transport } from './transport';

const healthReport = parsedBy(healthReportSchema);

export function healthApi(http: Transport) {
  return {
    /** GET /health. A degraded server still answers (503) with its report. */
    async getHealth({ signal }: RequestOptions = {}): Promise<HealthReport> {
      const operation = API_OPERATIONS.health;
      const { status, ok, json: body } = await http.call(operation, { signal });
      const report = healthReport(body);
      if (report && (ok || status === 503)) return report;
      if (!ok) throw httpError({ status, body, operation });
      throw invalidResponseError(operation, status, 'expected a health report');
    },
  };
}
