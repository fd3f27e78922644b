// Static analysis of a plugin's bundles (`server.js`, `ui.js`) with a real parser, never running them.
//
// This is the FIRST fence, not the only one. A static check over JavaScript cannot be complete — a determined author
// can reach the same objects by paths no rule foresees — so it refuses what a self-contained bundle has no reason to
// contain and catches honest mistakes and lazy attacks early, with a line and column. The SECOND fence is the process
// runtime (runtime/): each plugin runs in its own child process under Node's permission model, with no file system
// beyond its folder, no child processes, no network and capped memory and CPU. Neither fence assumes the other holds.
import { parse, type AnyNode, type Identifier, type Node, type Pattern, type Program } from 'acorn';
import { ancestor, type AncestorVisitors } from 'acorn-walk';
import type { Finding } from './finding.ts';

/** Globals a bundle may not name unless it declares a binding of its own by that name. */
const DENIED_GLOBALS = new Set([
  'eval',
  'Function',
  'require',
  'module',
  'exports',
  'process',
  'globalThis',
  'global',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
  'Worker',
  'XMLHttpRequest',
  'fetch',
  'WebSocket',
  'Deno',
  'Bun',
]);
/** Globals whose properties, looked up by a computed key, reach anything (`Reflect[name]`, `Object[name]`). */
const REFLECTIVE_GLOBALS = new Set(['Object', 'Reflect', 'Proxy', ...DENIED_GLOBALS]);
const NODE_MODULES =
  'child_process|fs|net|http|https|http2|dgram|tls|dns|vm|worker_threads|cluster|inspector|module|repl';
/** `node:`-prefixed specifiers and the bare names no ordinary string would be. */
const DENIED_SPECIFIER = new RegExp(
  `^(?:node:(?:${NODE_MODULES})|child_process|fs|http2|dgram|vm|worker_threads|net|tls|dns)(?:/[\\w/]*)?$`,
);
/** `http` and `https` are everyday words (`url.startsWith('https')`); refused only where they would be loaded. */
const DENIED_CALL_SPECIFIER = /^(?:https?)(?:\/[\w/]*)?$/;
const DENIED_TEXT = /process\s*\.\s*(?:binding|dlopen)/;
const MAX_FINDINGS = 50;

const FUNCTION_SCOPES = new Set([
  'Program',
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'StaticBlock',
]);
const BLOCK_SCOPES = new Set([
  ...FUNCTION_SCOPES,
  'BlockStatement',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'SwitchStatement',
  'CatchClause',
  'ClassDeclaration',
  'ClassExpression',
]);

export interface BundleOptions {
  /** The server bundle must export `activate`; the UI bundle's exports are the console's business. */
  readonly requireActivate: boolean;
}

export function analyzeBundle(entry: string, source: string, options: BundleOptions): Finding[] {
  let program: Program;
  try {
    program = parse(source, { sourceType: 'module', ecmaVersion: 'latest', locations: true });
  } catch (error) {
    const where =
      error instanceof SyntaxError && 'loc' in error ? position(error.loc as { line: number; column: number }) : '';
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\(\d+:\d+\)$/, '');
    return [{ code: 'bundle-parse-error', entry, message: `${entry}${where}: not a valid ES module (${reason}).` }];
  }
  const findings: Finding[] = [];
  const report = (code: string, node: Node, message: string): void => {
    if (findings.length < MAX_FINDINGS) {
      findings.push({ code, entry, message: `${entry}${position(node.loc?.start)}: ${message}` });
    }
  };
  try {
    checkProgram(program, collectBindings(program), report);
  } catch (error) {
    // acorn-walk recurses: a tree deep enough to exhaust the stack is refused, not half-checked.
    if (!(error instanceof RangeError)) throw error;
    return [{ code: 'bundle-too-complex', entry, message: `${entry} is nested too deeply to be checked.` }];
  }
  if (options.requireActivate && !exportsActivate(program)) {
    findings.push({
      code: 'bundle-missing-activate',
      entry,
      message: `${entry} does not export \`activate\`; the server bundle must export \`async function activate(api)\`.`,
    });
  }
  return findings;
}

type Report = (code: string, node: Node, message: string) => void;

interface Bindings {
  /** Names each scope-creating node declares. */
  readonly declared: Map<object, Set<string>>;
  /** Identifier nodes that declare a name rather than refer to one. */
  readonly declaring: Set<Identifier>;
}

/** Pass one: which names each scope declares, with `var` hoisted to its function and `let`/`const`/classes/functions to their block. */
function collectBindings(program: Program): Bindings {
  const bindings: Bindings = { declared: new Map(), declaring: new Set() };
  const declare = (scope: object | undefined, pattern: Pattern | null | undefined): void => {
    if (!scope || !pattern) return;
    const names = bindings.declared.get(scope) ?? new Set<string>();
    for (const identifier of patternIdentifiers(pattern)) {
      names.add(identifier.name);
      bindings.declaring.add(identifier);
    }
    bindings.declared.set(scope, names);
  };
  const nearest = (ancestors: readonly AnyNode[], kinds: Set<string>, skip: number): AnyNode | undefined =>
    ancestors
      .slice(0, ancestors.length - skip)
      .reverse()
      .find((node) => kinds.has(node.type));
  ancestor(program, {
    VariableDeclaration(node, _state, ancestors) {
      const scope = nearest(ancestors, node.kind === 'var' ? FUNCTION_SCOPES : BLOCK_SCOPES, 1);
      for (const declarator of node.declarations) declare(scope, declarator.id);
    },
    Function(node, _state, ancestors) {
      if (node.type === 'FunctionDeclaration') declare(nearest(ancestors, BLOCK_SCOPES, 1), node.id);
      else if (node.id) declare(node, node.id);
      for (const param of node.params) declare(node, param);
    },
    Class(node, _state, ancestors) {
      if (node.type === 'ClassDeclaration') declare(nearest(ancestors, BLOCK_SCOPES, 1), node.id);
      declare(node, node.id);
    },
    CatchClause(node) {
      declare(node, node.param);
    },
    ImportDeclaration(node) {
      for (const specifier of node.specifiers) declare(program, specifier.local);
    },
  });
  return bindings;
}

function patternIdentifiers(pattern: Pattern): Identifier[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) =>
        patternIdentifiers(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element ? patternIdentifiers(element) : []));
    case 'RestElement':
      return patternIdentifiers(pattern.argument);
    case 'AssignmentPattern':
      return patternIdentifiers(pattern.left);
    default:
      return [];
  }
}

function isFree(name: string, ancestors: readonly AnyNode[], bindings: Bindings): boolean {
  return !ancestors.some((node) => bindings.declared.get(node)?.has(name));
}

/** Pass two: everything the bundle may not do, each with its position. */
function checkProgram(program: Program, bindings: Bindings, report: Report): void {
  const reference = (node: Identifier, ancestors: readonly AnyNode[]): void => {
    if (!DENIED_GLOBALS.has(node.name) || !isFree(node.name, ancestors, bindings)) return;
    const parent = ancestors[ancestors.length - 2];
    if (node.name === 'require' && parent?.type === 'CallExpression' && parent.callee === node) {
      report(
        'bundle-require',
        node,
        'calls `require`; a plugin bundle is one self-contained ES module and loads nothing.',
      );
    } else {
      report(
        'bundle-denied-global',
        node,
        `uses the global \`${node.name}\`, which plugins may not touch; everything a plugin needs comes from \`api\`.`,
      );
    }
  };
  // acorn-walk's types do not list the `VariablePattern` pseudo-type it visits identifiers in patterns as.
  const patterns = {
    // An identifier in a pattern that declares nothing is an assignment target (`process = …`): still a reference.
    VariablePattern(node: AnyNode, _state: unknown, ancestors: AnyNode[]) {
      if (node.type === 'Identifier' && !bindings.declaring.has(node)) reference(node, ancestors);
    },
  } as AncestorVisitors<unknown>;
  ancestor(program, {
    ...patterns,
    ImportDeclaration(node) {
      report('bundle-import', node, `imports "${String(node.source.value)}"; a plugin bundle must import nothing.`);
    },
    ExportAllDeclaration(node) {
      report(
        'bundle-reexport',
        node,
        `re-exports from "${String(node.source.value)}"; a plugin bundle must import nothing.`,
      );
    },
    ExportNamedDeclaration(node, _state, ancestors) {
      if (node.source) {
        report(
          'bundle-reexport',
          node,
          `re-exports from "${String(node.source.value)}"; a plugin bundle must import nothing.`,
        );
        return;
      }
      for (const specifier of node.specifiers) {
        if (specifier.local.type === 'Identifier') reference(specifier.local, [...ancestors, specifier.local]);
      }
    },
    ImportExpression(node) {
      report('bundle-dynamic-import', node, 'loads a module with `import()`; a plugin bundle must import nothing.');
    },
    MetaProperty(node) {
      if (node.meta.name === 'import') {
        report(
          'bundle-import-meta',
          node,
          'reads `import.meta`, which tells a module where it lives; plugins get what they need from `api`.',
        );
      }
    },
    Identifier(node, _state, ancestors) {
      reference(node, ancestors);
    },
    MemberExpression(node, _state, ancestors) {
      const key = node.computed
        ? literalKey(node.property)
        : node.property.type === 'Identifier'
          ? node.property.name
          : undefined;
      if (key === 'constructor') {
        report(
          'bundle-constructor-access',
          node.property,
          'reads `.constructor`, the classic way to reach `Function` from any function and run a string as code.',
        );
      } else if (
        node.computed &&
        key === undefined &&
        node.object.type === 'Identifier' &&
        REFLECTIVE_GLOBALS.has(node.object.name) &&
        isFree(node.object.name, ancestors, bindings)
      ) {
        report(
          'bundle-computed-access',
          node,
          `looks up a computed property of \`${node.object.name}\`, which can reach anything.`,
        );
      }
    },
    ObjectPattern(node) {
      for (const property of node.properties) {
        if (property.type !== 'Property') continue;
        const key = property.computed
          ? literalKey(property.key)
          : property.key.type === 'Identifier'
            ? property.key.name
            : literalKey(property.key);
        if (key === 'constructor') {
          report(
            'bundle-constructor-access',
            property,
            'destructures `constructor`, a way to reach `Function` and run a string as code.',
          );
        }
      }
    },
    Literal(node, _state, ancestors) {
      if (typeof node.value === 'string') checkString(node.value, node, ancestors, report);
    },
    TemplateLiteral(node, _state, ancestors) {
      const text = node.expressions.length === 0 ? node.quasis[0]?.value.cooked : undefined;
      if (typeof text === 'string') checkString(text, node, ancestors, report);
    },
  });
}

function checkString(text: string, node: Node, ancestors: readonly AnyNode[], report: Report): void {
  const parent = ancestors[ancestors.length - 2];
  const loaded =
    parent?.type === 'CallExpression' &&
    parent.callee.type === 'Identifier' &&
    parent.arguments.includes(node as never);
  if (DENIED_SPECIFIER.test(text) || (loaded && DENIED_CALL_SPECIFIER.test(text))) {
    report('bundle-denied-module', node, `names the Node.js module "${text}", which plugins may not load.`);
  } else if (DENIED_TEXT.test(text)) {
    report('bundle-denied-module', node, 'names `process.binding` or `process.dlopen`, which reach native code.');
  }
}

/** The key of a computed lookup when it is a constant (`x['constructor']`, ``x[`constructor`]``), else undefined. */
function literalKey(node: AnyNode): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : String(node.value);
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

function exportsActivate(program: Program): boolean {
  return program.body.some((statement) => {
    if (statement.type !== 'ExportNamedDeclaration') return false;
    const declaration = statement.declaration;
    if (declaration?.type === 'FunctionDeclaration') return declaration.id.name === 'activate';
    if (declaration?.type === 'VariableDeclaration') {
      return declaration.declarations.some((declarator) =>
        patternIdentifiers(declarator.id).some((id) => id.name === 'activate'),
      );
    }
    return statement.specifiers.some(
      (specifier) =>
        (specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value) === 'activate',
    );
  });
}

function position(loc: { line: number; column: number } | undefined): string {
  return loc ? `:${loc.line}:${loc.column + 1}` : '';
}
