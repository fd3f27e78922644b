// The OpenAPI meta of an administration procedure, so each router line says only method, path and summary.
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export function restMeta(tag: string) {
  return (method: Method, path: `/${string}`, summary: string) => ({ openapi: { method, path, tags: [tag], summary } });
}
