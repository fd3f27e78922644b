// Extension points, declared by the module that owns them (Backstage style): the owner creates a typed point in
// its module.ts and reads the enabled contributions through the registry; other modules contribute from their
// descriptors without importing the owner's internals. The registry checks at start that every contribution names
// a point its owner declares, that the contributor requires that owner, and that a single-valued point has one.
export interface ExtensionPoint<T> {
  /** `<owner>.<name>`, unique in the installation. */
  readonly id: string;
  /** The id of the module that declares the point and consumes what is contributed. */
  readonly owner: string;
  /** `one`: at most one module contributes (e.g. the cluster locator); `many`: any number, in module order. */
  readonly cardinality: 'one' | 'many';
  /** Carries the contribution type for inference; never set. */
  readonly contributionType?: T;
}

export interface Contribution<T = unknown> {
  readonly point: ExtensionPoint<T>;
  readonly value: T;
}

export function createExtensionPoint<T>(point: Omit<ExtensionPoint<T>, 'contributionType'>): ExtensionPoint<T> {
  return point;
}

export function contribution<T>(point: ExtensionPoint<T>, value: T): Contribution<T> {
  return { point, value };
}
