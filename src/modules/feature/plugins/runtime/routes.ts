// Which of a plugin's registered routes answers a request: `:name` segments capture one path segment, everything else
// matches literally, and a route with more literal segments wins over one with captures.

export interface RouteMatch {
  route: { method: string; path: string };
  params: Record<string, string>;
}

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape stays as sent
  }
}

export function matchRoute(
  routes: readonly { method: string; path: string }[],
  method: string,
  path: string,
): RouteMatch | undefined {
  const wanted = segments(path);
  let best: (RouteMatch & { literals: number }) | undefined;
  for (const route of routes) {
    if (route.method.toUpperCase() !== method.toUpperCase()) continue;
    const pattern = segments(route.path);
    if (pattern.length !== wanted.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const matches = pattern.every((segment, index) => {
      const actual = wanted[index] ?? '';
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decoded(actual);
        return true;
      }
      literals += 1;
      return segment === actual;
    });
    if (matches && (!best || literals > best.literals)) best = { route, params, literals };
  }
  return best && { route: best.route, params: best.params };
}
