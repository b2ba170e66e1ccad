import { BadRequestException } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { UNEXPECTED_ERROR_MESSAGE, UnexpectedErrorFilter } from './unexpected-error.filter';

function fakeHost(headersSent = false) {
  const replies: { body: unknown; status: number }[] = [];
  let ended = 0;
  const adapter = {
    isHeadersSent: () => headersSent,
    reply: (_response: unknown, body: unknown, status: number) => replies.push({ body, status }),
    end: () => {
      ended += 1;
    },
  };
  const host = {
    getType: () => 'http',
    getArgByIndex: () => ({}),
    getArgs: () => [{}, {}],
  } as unknown as ArgumentsHost;
  const filter = new UnexpectedErrorFilter();
  (filter as unknown as { httpAdapterHost: HttpAdapterHost }).httpAdapterHost = {
    httpAdapter: adapter,
  } as unknown as HttpAdapterHost;
  // The filter logs the detail; keep the test output quiet.
  (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
  return { filter, host, replies, ended: () => ended };
}

describe('UnexpectedErrorFilter', () => {
  it('turns an unexpected error into a 500 with a fixed sentence and no internals', () => {
    const { filter, host, replies } = fakeHost();
    filter.catch(new Error('relation "secret_table" does not exist at /srv/app/x.ts:12'), host);
    expect(replies).toEqual([
      {
        status: 500,
        body: { statusCode: 500, message: UNEXPECTED_ERROR_MESSAGE, error: 'Internal Server Error' },
      },
    ]);
  });

  it('keeps HTTP exceptions as they are', () => {
    const { filter, host, replies } = fakeHost();
    filter.catch(new BadRequestException('query must not be empty'), host);
    expect(replies).toEqual([
      { status: 400, body: { statusCode: 400, message: 'query must not be empty', error: 'Bad Request' } },
    ]);
  });

  it('only ends a response that already started (an event stream)', () => {
    const { filter, host, replies, ended } = fakeHost(true);
    filter.catch(new Error('boom'), host);
    expect(replies).toEqual([]);
    expect(ended()).toBe(1);
  });
});
