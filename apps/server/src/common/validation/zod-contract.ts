/**
 * The server's side of the wire contract in libs/shared: one pipe validates a body or a query with its
 * zod schema (the 400 lists every problem, each naming its field; unknown keys are refused), and the
 * same schemas become the OpenAPI document's request bodies, query parameters and response bodies.
 */
import { BadRequestException, Body, Query } from '@nestjs/common';
import type { PipeTransform } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { issueSentences } from '@lumina/shared';
import { z } from 'zod/v4';

type Json = Record<string, unknown>;

/** Validates (and, for queries, converts) a value with its schema; a failure is a 400 of sentences. */
export class ZodValidationPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(private readonly schema: T) {}

  transform(value: unknown): z.output<T> {
    const parsed = this.schema.safeParse(value ?? {});
    if (!parsed.success) throw new BadRequestException(issueSentences(parsed.error));
    return parsed.data;
  }
}

/** The named schemas the OpenAPI document's components hold, registered by the decorators below. */
const components = new Map<string, Json>();

function register(name: string, schema: z.ZodType, io: 'input' | 'output'): string {
  const converted = openApiSchema(schema, io);
  const known = components.get(name);
  if (known && JSON.stringify(known) !== JSON.stringify(converted)) {
    throw new Error(`two different schemas are both named ${name} in the OpenAPI document`);
  }
  components.set(name, converted);
  return `#/components/schemas/${name}`;
}

function methodDecorator(
  target: object,
  key: string | symbol | undefined,
): [object, string | symbol, PropertyDescriptor] {
  if (key === undefined) throw new Error('contract decorators go on controller method parameters');
  return [target, key, Object.getOwnPropertyDescriptor(target, key)!];
}

/** The `$ref` of a schema registered under `name` (for decorators that take a schema object). */
export function contractRef(schema: z.ZodType, name: string, io: 'input' | 'output' = 'output'): string {
  return register(name, schema, io);
}

export interface ValidBodyOptions {
  /** A pipe of the body's own (which parses with the schema), for a body one parse cannot report well. */
  pipe?: PipeTransform;
  /** Named examples for /api/docs, the first of which "Try it out" starts from. */
  examples?: Record<string, { summary?: string; value: unknown }>;
}

/** `@ValidBody(schema, 'Name')`: the body, validated by `schema`, documented as the component Name. */
export function ValidBody(
  schema: z.ZodType,
  name: string,
  options: ValidBodyOptions = {},
): ParameterDecorator {
  const ref = register(name, schema, 'input');
  return (target, key, index) => {
    Body(options.pipe ?? new ZodValidationPipe(schema))(target, key!, index);
    ApiBody({ schema: { $ref: ref }, ...(options.examples ? { examples: options.examples } : {}) })(
      ...methodDecorator(target, key),
    );
  };
}

/** `@ValidQuery(schema)`: the query string, validated and converted by `schema`, each field documented. */
export function ValidQuery(schema: z.ZodObject): ParameterDecorator {
  const converted = openApiSchema(schema, 'input');
  const properties = (converted.properties ?? {}) as Record<string, Json>;
  const required = new Set((converted.required ?? []) as string[]);
  return (target, key, index) => {
    Query(new ZodValidationPipe(schema))(target, key!, index);
    for (const [name, property] of Object.entries(properties)) {
      const { description, example, ...rest } = property;
      ApiQuery({
        name,
        required: required.has(name),
        schema: rest,
        ...(typeof description === 'string' ? { description } : {}),
        ...(example !== undefined ? { example } : {}),
      })(...methodDecorator(target, key));
    }
  };
}

/** `@ValidResponse(schema, 'Name')`: the 200/201 answer's body is the component Name. */
export function ValidResponse(schema: z.ZodType, name: string, description?: string): MethodDecorator {
  const ref = register(name, schema, 'output');
  return ApiOkResponse({ schema: { $ref: ref }, ...(description ? { description } : {}) });
}

/**
 * `@ValidEventStream(events)`: the 200 answer is a `text/event-stream` whose events' data are these
 * components (one per SSE event name, listed in `x-events`).
 */
export function ValidEventStream(
  events: Record<string, { schema: z.ZodType; name: string }>,
  description: string,
): MethodDecorator {
  const refs = Object.entries(events).map(
    ([event, { schema, name }]) => [event, register(name, schema, 'output')] as const,
  );
  return ApiOkResponse({
    description,
    content: {
      'text/event-stream': {
        // `x-events` is an extension (the event name of each schema), which the typings do not list.
        schema: {
          oneOf: refs.map(([, ref]) => ({ $ref: ref })),
          'x-events': Object.fromEntries(refs.map(([event, ref]) => [event, { $ref: ref }])),
        } as SchemaObject,
      },
    },
  });
}

/** The OpenAPI document with the contract's named schemas among its components. */
export function withContractSchemas(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas ??= {};
  for (const [name, schema] of components) document.components.schemas[name] = schema;
  return document;
}

/**
 * A zod schema as an OpenAPI 3.0 schema object: JSON Schema 2020-12 with `anyOf [T, null]` as
 * `nullable`, without `$schema`, and without the bounds that only say "a safe integer".
 */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return toOpenApi30(json) as Json;
}

function toOpenApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi30);
  if (typeof node !== 'object' || node === null) return node;
  const object = { ...(node as Json) };
  const anyOf = object.anyOf as Json[] | undefined;
  if (anyOf) {
    const rest = anyOf.filter((option) => option.type !== 'null');
    if (rest.length < anyOf.length) {
      delete object.anyOf;
      const inner = rest.length === 1 ? rest[0] : { anyOf: rest };
      return { ...(toOpenApi30(inner) as Json), ...(toOpenApi30(object) as Json), nullable: true };
    }
  }
  if (object.maximum === Number.MAX_SAFE_INTEGER) delete object.maximum;
  if (object.minimum === Number.MIN_SAFE_INTEGER) delete object.minimum;
  if (object.format === 'uuid') delete object.pattern;
  if (object.const !== undefined) {
    object.enum = [object.const];
    delete object.const;
  }
  for (const [key, value] of Object.entries(object)) {
    if (typeof value === 'object' && value !== null && key !== 'example' && key !== 'default') {
      object[key] = toOpenApi30(value);
    }
  }
  return object;
}
