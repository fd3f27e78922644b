// GET /api/v1/openapi.json: generated from the same procedures that serve tRPC and REST, never hand-written.
// Disabled modules' operations are left out; every error response is described as problem+json; a mutating
// operation gets the `dryRun` and `override` query parameters the REST adapter accepts where it honours them.
import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { PROBLEM_CONTENT_TYPE } from '@/modules/kernel/core/index.ts';
import { appRouter } from '@/installation/app-router.ts';
import type { ProcedureMeta } from '@/modules/kernel/access/index.ts';

type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;
type SchemaObject = NonNullable<NonNullable<OpenApiDocument['components']>['schemas']>[string];
type Operation = NonNullable<NonNullable<OpenApiDocument['paths']>[string]['get']>;
type Parameter = NonNullable<Operation['parameters']>[number];

const MUTATING_METHODS = ['post', 'put', 'patch', 'delete'] as const;

const PROBLEM_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'RFC 9457 problem details',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', description: 'Problem type, e.g. feature-disabled, validation-failed, bulk-cap-exceeded' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
  additionalProperties: true,
};

const COMMON_MUTATION_PARAMETERS: (Parameter & { name: string })[] = [
  {
    name: 'dryRun',
    in: 'query',
    required: false,
    schema: { type: 'boolean', default: false },
    description: 'Return what would change without changing anything; audited as a dry run',
  },
  {
    name: 'override',
    in: 'query',
    required: false,
    schema: { type: 'boolean', default: false },
    description: 'Permit a destructive operation whose count exceeds safety.bulk-cap',
  },
];

/** The top-level properties of an operation's JSON request body (where its input's flags live). */
function bodyProperties(operation: Operation): Record<string, unknown> {
  const body = operation.requestBody as
    { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined;
  return body?.content?.['application/json']?.schema?.properties ?? {};
}

function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null && 'responses' in value;
}

export function buildOpenApiDocument(registry: Pick<ModuleRegistry, 'isEnabled'>): OpenApiDocument {
  const document = generateOpenApiDocument<ProcedureMeta>(appRouter, {
    title: 'Flotilla API',
    description: 'Manage fleets of Apache ActiveMQ Artemis clusters. Errors are RFC 9457 problem+json.',
    version: '1',
    baseUrl: '/api/v1',
    filter: ({ metadata }) => metadata.module !== undefined && registry.isEnabled(metadata.module),
  });
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA },
  };
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const [method, candidate] of Object.entries(pathItem) as [string, unknown][]) {
      if (!isOperation(candidate)) continue;
      const operation = candidate;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2') || !response || typeof response !== 'object') continue;
        Object.assign(response, {
          content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
        });
      }
      if ((MUTATING_METHODS as readonly string[]).includes(method)) {
        // Only what the operation honours: `dryRun` where its input has one, `override` where a bulk cap applies.
        const body = bodyProperties(operation);
        const honoured = COMMON_MUTATION_PARAMETERS.filter((parameter) => parameter.name in body);
        operation.parameters = [...(operation.parameters ?? []), ...honoured];
      }
    }
  }
  return document;
}

const cache = new WeakMap<ModuleRegistry, OpenApiDocument>();

export function openApiDocumentFor(registry: ModuleRegistry): OpenApiDocument {
  let document = cache.get(registry);
  if (!document) {
    document = buildOpenApiDocument(registry);
    cache.set(registry, document);
  }
  return document;
}
