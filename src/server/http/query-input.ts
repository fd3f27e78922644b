// The input of a GET or DELETE, which trpc-to-openapi reads from the query string, where every value is a string.
// A parameter the operation declares is given at most once (none is a list): twice is a 400 naming it, so the value
// a guard reads is the value the handler uses, and the answer says why instead of a schema's "received array".
// Parameters the OpenAPI document declares boolean take exactly `true` or `false` (anything else is a 400 naming
// it) and reach the procedure as booleans, whose schemas accept nothing else (strict-booleans.ts). The adapter reads
// a request's pre-parsed `query`, as it does an Express request's.
import { type Problem, validationProblem } from '@/modules/kernel/core/index.ts';

/** The OpenAPI document, as far as it is read here. */
interface Document {
  readonly paths?: object;
}
interface Parameter {
  readonly in?: string;
  readonly name?: string;
  readonly schema?: { readonly type?: string };
}

const API_BASE = '/api/v1';
const compiled = new WeakMap<Document, { pattern: RegExp; template: string }[]>();

function templates(document: Document): { pattern: RegExp; template: string }[] {
  let list = compiled.get(document);
  if (!list) {
    list = Object.keys(document.paths ?? {}).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    compiled.set(document, list);
  }
  return list;
}

/** The query parameters of the operation the request reaches, by name, with their schema's type. */
function queryParameters(document: Document, method: string, pathname: string): Map<string, string | undefined> {
  const path = pathname.slice(API_BASE.length);
  const match = templates(document).find(({ pattern }) => pattern.test(path));
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const operation = match ? paths[match.template]?.[method.toLowerCase()] : undefined;
  const parameters = (operation as { parameters?: Parameter[] } | undefined)?.parameters ?? [];
  return new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name ?? '', p.schema?.type]));
}

export function queryInput(
  document: Document,
  method: string,
  url: URL,
): { query: Record<string, unknown[]> } | { problem: Problem } {
  const declared = queryParameters(document, method, url.pathname);
  const query: Record<string, unknown[]> = {};
  const errors: { field: string; message: string }[] = [];
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    const type = declared.get(name);
    if (declared.has(name) && type !== 'array' && values.length > 1)
      errors.push({ field: name, message: 'must be given at most once' });
    else if (type !== 'boolean') query[name] = values;
    else if (values[0] === 'true' || values[0] === 'false') query[name] = [values[0] === 'true'];
    else errors.push({ field: name, message: 'must be true or false' });
  }
  return errors.length > 0 ? { problem: validationProblem(errors) } : { query };
}
