// Path prefixes of modules (REST `apiPrefixes` and console `routes`). A prefix is literal, except that a segment
// written `{name}` matches any one segment, so a feature can own a path below another module's resource, e.g.
// `/api/v1/clusters/{clusterId}/queues` beside the clusters module's `/api/v1/clusters`.

/** How specific a matching prefix is (more segments, then more literal ones), or undefined when it does not match. */
export function prefixMatch(pathname: string, prefix: string): number | undefined {
  const path = pathname.split('/');
  const pattern = prefix.split('/');
  if (pattern.length > path.length) return undefined;
  let literal = 0;
  for (const [index, segment] of pattern.entries()) {
    const actual = path[index] ?? '';
    if (/^\{[^}]+\}$/.test(segment)) {
      if (actual === '') return undefined;
    } else if (segment === actual) literal += 1;
    else return undefined;
  }
  return pattern.length * 1000 + literal;
}

/** The owner whose prefix matches most specifically. */
export function mostSpecificOwner<Owner>(
  pathname: string,
  owners: Iterable<{ readonly owner: Owner; readonly prefixes: readonly string[] }>,
): Owner | undefined {
  let best: { owner: Owner; score: number } | undefined;
  for (const { owner, prefixes } of owners) {
    for (const prefix of prefixes) {
      const score = prefixMatch(pathname, prefix);
      if (score !== undefined && score > (best?.score ?? -1)) best = { owner, score };
    }
  }
  return best?.owner;
}
