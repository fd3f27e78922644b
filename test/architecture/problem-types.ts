// The problem types the production code can answer, read from its sources with the TypeScript parser (no regex, no
// type checker: a full program takes half a minute to check, a parse of every file a second or two).
//
// A problem is an object literal with a `type` property that either has `title` and `status` beside it (the shape of
// kernel/core's `Problem`, however it is later thrown or answered) or stands where a `Problem` goes: the argument of
// `new ProblemError(…)` or `problemResponse(…)`, a value declared, returned, asserted or satisfying `Problem`. Its
// `type` and `status` are evaluated, not matched: string and number literals, `as const`, both arms of a conditional,
// a constant (in the file or imported, through re-exports), a constant object's property (`CLUSTER_NOT_FOUND.type`),
// and a helper's parameter, followed to every call of the helper, so `problem(404, 'queue-not-found', …)` counts with
// its own status (a helper also passed on as a value has calls no scan sees: reported). Whatever cannot be evaluated
// is reported as unresolved, never skipped, so a new raise site can only add a type or fail the check. Files named
// *.test.ts(x), generated code and the console's browser code (ui/ folders) do not count.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/** One raise site: a type and the status it answers with, where the code spells it. */
export interface RaisedProblem {
  readonly type: string;
  readonly status: number;
  /** `path:line` of the problem's object literal. */
  readonly site: string;
}

/** A problem literal whose type or status is not a value the parser can follow (computed at run time). */
interface UnresolvedProblem {
  readonly site: string;
  /** The enclosing named function, e.g. `problemFromError`. */
  readonly within: string;
  readonly text: string;
}

type Value = string | number;
type Declaration = ts.VariableDeclaration | ts.ParameterDeclaration | ts.FunctionDeclaration;
type Callable = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;
/** Each helper parameter met so far, bound to the argument of one call. */
type Bindings = ReadonlyMap<ts.ParameterDeclaration, ts.Expression | undefined>;
interface Combination {
  readonly values: readonly (Value | undefined)[];
  readonly via?: ts.Node;
}

class NotEvaluable extends Error {}
class NeedsCaller extends Error {
  constructor(readonly parameter: ts.ParameterDeclaration) {
    super('parameter');
  }
}

const MAX_CALL_DEPTH = 6;
const PROCEDURE_KIT = 'src/modules/kernel/access/procedure.ts';
// What the edges import of the two libraries that build TRPCErrors: the procedures run in @trpc/server's core,
// /api/trpc is its fetch adapter, /api/v1 trpc-to-openapi's.
const EDGE_LIBRARY_ENTRIES = ['@trpc/server', '@trpc/server/adapters/fetch', 'trpc-to-openapi'];
const EDGE_LIBRARIES = ['@trpc/server', 'trpc-to-openapi'];
// Generated code, and the console's browser code (src/ui, a module's ui/): it reads problems, it answers none.
const SKIPPED_FOLDERS = new Set(['generated', 'node_modules', 'ui']);

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });
}

/** The ES module file a bare specifier of one of the edge libraries names, by its package's exports. */
function libraryEntry(specifier: string): string | undefined {
  const library = EDGE_LIBRARIES.find((name) => specifier === name || specifier.startsWith(`${name}/`));
  if (!library) return undefined;
  const folder = path.join(repositoryRoot, 'node_modules', library);
  const { exports } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import?: string | { default?: string } }>;
  };
  const target = exports[`.${specifier.slice(library.length)}`];
  const entry = typeof target === 'string' ? target : target?.import;
  const file = typeof entry === 'string' ? entry : entry?.default;
  return file ? path.join(folder, file) : undefined;
}

/** Every file of the edge libraries the entries reach through their imports. */
function libraryFilesFrom(entries: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const queue = entries.map(libraryEntry);
  while (queue.length > 0) {
    const file = queue.pop();
    if (!file || reached.has(file)) continue;
    reached.add(file);
    for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/\bfrom\s*["']([^"']+)["']/g))
      queue.push(specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : libraryEntry(specifier));
  }
  return reached;
}

const nameOf = (node: ts.PropertyName | ts.BindingName | undefined): string | undefined =>
  node && (ts.isIdentifier(node) || ts.isStringLiteral(node)) ? node.text : undefined;

function property(literal: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined {
  return literal.properties.find((element) => !ts.isSpreadAssignment(element) && nameOf(element.name) === name);
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current) ||
    ts.isNonNullExpression(current)
  )
    current = current.expression;
  return current;
}

const isProblemType = (type: ts.TypeNode | undefined): boolean =>
  type !== undefined && ts.isTypeReferenceNode(type) && type.typeName.getText() === 'Problem';

/** Whether the literal stands where a `Problem` goes, whatever properties it spells. */
function inProblemPosition(literal: ts.ObjectLiteralExpression): boolean {
  let node: ts.Node = literal;
  while (ts.isParenthesizedExpression(node.parent) || ts.isConditionalExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isNewExpression(parent) && parent.expression.getText() === 'ProblemError') return true;
  if (ts.isCallExpression(parent) && parent.expression.getText() === 'problemResponse')
    return parent.arguments[0] === node;
  if ((ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) && isProblemType(parent.type)) return true;
  if (ts.isVariableDeclaration(parent) && isProblemType(parent.type)) return true;
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) {
    const fn = ts.findAncestor(parent, ts.isFunctionLike);
    return fn !== undefined && isProblemType(fn.type);
  }
  return false;
}

export class ProblemScan {
  private readonly files = new Map<string, ts.SourceFile>();
  /** Call expressions by the name they call, for following a helper's parameters to its callers. */
  private readonly callsByName = new Map<string, ts.CallExpression[]>();
  /** Every other use of a name as a value (`.catch(refuse)`): a helper used so has callers no scan can follow. */
  private readonly passedByName = new Map<string, ts.Identifier[]>();

  constructor(folders: readonly string[] = ['src', 'worker']) {
    for (const folder of folders)
      for (const file of sourcesUnder(path.join(repositoryRoot, folder))) {
        const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
        const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
        this.files.set(file, source);
        const index = (node: ts.Node) => {
          if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
            listed(this.callsByName, node.expression.text).push(node);
          else if (ts.isIdentifier(node) && isPassed(node)) listed(this.passedByName, node.text).push(node);
          ts.forEachChild(node, index);
        };
        index(source);
      }
  }

  /** Every raise site the sources spell, and the problem literals whose type or status is computed. */
  scan(): { raised: RaisedProblem[]; unresolved: UnresolvedProblem[] } {
    const raised: RaisedProblem[] = [];
    const unresolved: UnresolvedProblem[] = [];
    for (const source of this.files.values()) {
      const visit = (node: ts.Node) => {
        if (ts.isObjectLiteralExpression(node)) this.collect(node, raised, unresolved);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return { raised, unresolved };
  }

  /**
   * The types of the procedure kit's one computed raise: `problemFromError` (kernel/access/procedure.ts) answers a
   * TRPCError that carries no problem with a slug of its code (`METHOD_NOT_SUPPORTED` → `method-not-supported`) and
   * the status `STATUS_BY_CODE` gives it. The codes are those a TRPCError is built with, in these sources and in the
   * two libraries that serve the edges (tRPC's fetch handler on /api/trpc, trpc-to-openapi's on /api/v1), less the
   * codes `problemFromError` answers otherwise before it gets there (`error.code === 'NOT_FOUND'` → `not-found`).
   */
  trpcCodeProblems(): RaisedProblem[] {
    const file = path.join(repositoryRoot, PROCEDURE_KIT);
    const source = this.files.get(file);
    const mapper = source && declaredIn(source.statements, 'problemFromError');
    const table = source && declaredIn(source.statements, 'STATUS_BY_CODE');
    const statuses = table && ts.isVariableDeclaration(table) && table.initializer && unwrap(table.initializer);
    if (!mapper || !statuses || !ts.isObjectLiteralExpression(statuses))
      throw new Error(`${PROCEDURE_KIT} no longer has problemFromError and STATUS_BY_CODE: update this scan`);
    const answeredBefore = new Set<string>();
    const compared = (node: ts.Node) => {
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken &&
        node.left.getText() === 'error.code' &&
        ts.isStringLiteral(node.right)
      )
        answeredBefore.add(node.right.text);
      ts.forEachChild(node, compared);
    };
    compared(mapper);
    return [...this.trpcErrorCodes()].flatMap((code) => {
      const entry = property(statuses, code);
      if (!entry || answeredBefore.has(code)) return [];
      return this.evaluate(this.valueOf(entry), new Map()).map((status) => ({
        type: code.toLowerCase().replaceAll('_', '-'),
        status: Number(status),
        site: `${siteOf(mapper)} (a TRPCError ${code})`,
      }));
    });
  }

  /** The codes TRPCErrors are built with: `new TRPCError({ code: '…' })` here and in the edge libraries. */
  private trpcErrorCodes(): Set<string> {
    const codes = new Set<string>();
    for (const source of this.files.values()) {
      const visit = (node: ts.Node) => {
        const argument = ts.isNewExpression(node) && node.expression.getText() === 'TRPCError' && node.arguments?.[0];
        const code = argument && ts.isObjectLiteralExpression(argument) && property(argument, 'code');
        if (code) for (const value of this.evaluate(this.valueOf(code), new Map())) codes.add(String(value));
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    for (const file of libraryFilesFrom(EDGE_LIBRARY_ENTRIES))
      for (const construction of readFileSync(file, 'utf8').split('new TRPCError(').slice(1)) {
        const code = /\bcode:\s*["']([A-Z_]+)["']/.exec(construction.split('})')[0] ?? '');
        if (code?.[1]) codes.add(code[1]);
      }
    return codes;
  }

  private collect(literal: ts.ObjectLiteralExpression, raised: RaisedProblem[], unresolved: UnresolvedProblem[]) {
    const type = property(literal, 'type');
    if (!type) return;
    const status = property(literal, 'status');
    const shaped = property(literal, 'title') !== undefined && status !== undefined;
    if (!shaped && !inProblemPosition(literal)) return;
    // An OpenAPI schema of a problem (`type: { type: 'string' }`) describes one; it raises nothing.
    if ([type, status].some((element) => element && isSchema(element))) return;
    try {
      const found = this.evaluateTogether([this.valueOf(type), status && this.valueOf(status)], new Map());
      // `{ type: 'text', title, status: 'passed' }` and the like are not problems: a problem's status is a number.
      if (shaped && found.every(({ values: [, code] }) => typeof code !== 'number')) return;
      for (const { values, via } of found) {
        const [kind, code] = values;
        if (typeof kind !== 'string' || typeof code !== 'number') throw new NotEvaluable();
        raised.push({ type: kind, status: code, site: siteOf(via ?? literal) });
      }
    } catch (error) {
      if (!(error instanceof NotEvaluable || error instanceof NeedsCaller)) throw error;
      const within = ts.findAncestor(literal, ts.isFunctionDeclaration)?.name?.text ?? '';
      unresolved.push({ site: siteOf(literal), within, text: literal.getText().replace(/\s+/g, ' ') });
    }
  }

  private valueOf(element: ts.ObjectLiteralElementLike): ts.Expression {
    if (ts.isPropertyAssignment(element)) return element.initializer;
    if (ts.isShorthandPropertyAssignment(element)) return element.name;
    throw new NotEvaluable();
  }

  /**
   * The combinations of values the expressions take together: a helper parameter met in any of them is bound, for
   * every call of the helper, to that call's argument, so a type and a status passed by one call stay paired. Each
   * combination names the outermost call it was bound at, if any: where that raise is spelled.
   */
  private evaluateTogether(
    expressions: readonly (ts.Expression | undefined)[],
    bindings: Bindings,
    depth = 0,
  ): Combination[] {
    try {
      const values = expressions.reduce<(Value | undefined)[][]>(
        (combinations, expression) => {
          const options = expression ? this.evaluate(expression, bindings) : [undefined];
          return combinations.flatMap((combination) => options.map((value) => [...combination, value]));
        },
        [[]],
      );
      return values.map((combination) => ({ values: combination }));
    } catch (error) {
      if (!(error instanceof NeedsCaller) || depth >= MAX_CALL_DEPTH) throw error;
      const callable = error.parameter.parent as Callable;
      const calls = this.callsOf(callable);
      if (calls.length === 0) throw new NotEvaluable();
      return calls.flatMap((call) => {
        const bound = new Map(bindings);
        callable.parameters.forEach((parameter, index) => bound.set(parameter, call.arguments[index]));
        return this.evaluateTogether(expressions, bound, depth + 1).map((found) => ({ via: call, ...found }));
      });
    }
  }

  private evaluate(expression: ts.Expression, bindings: Bindings): Value[] {
    const node = unwrap(expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isNumericLiteral(node)) return [Number(node.text)];
    if (ts.isConditionalExpression(node))
      return [...this.evaluate(node.whenTrue, bindings), ...this.evaluate(node.whenFalse, bindings)];
    if (ts.isIdentifier(node)) return this.evaluateDeclaration(this.declarationOf(node), bindings);
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const owner = this.declarationOf(node.expression);
      const initializer = ts.isVariableDeclaration(owner) && owner.initializer ? unwrap(owner.initializer) : undefined;
      const member = initializer && ts.isObjectLiteralExpression(initializer) && property(initializer, node.name.text);
      if (member) return this.evaluate(this.valueOf(member), bindings);
    }
    throw new NotEvaluable();
  }

  private evaluateDeclaration(declaration: Declaration, bindings: Bindings): Value[] {
    if (ts.isParameter(declaration)) {
      if (!bindings.has(declaration)) throw new NeedsCaller(declaration);
      const argument = bindings.get(declaration) ?? declaration.initializer;
      if (!argument) throw new NotEvaluable();
      return this.evaluate(argument, bindings);
    }
    if (ts.isVariableDeclaration(declaration) && declaration.initializer && isConst(declaration))
      return this.evaluate(declaration.initializer, bindings);
    throw new NotEvaluable();
  }

  /** The declaration a name refers to where it is used: a parameter, a local or top-level constant, an import. */
  private declarationOf(identifier: ts.Identifier): Declaration {
    const name = identifier.text;
    // Up from the use, scope by scope, to the file: a file's own declarations, then its imports.
    for (let scope: ts.Node = identifier.parent; ; scope = scope.parent) {
      if (isCallable(scope)) {
        const parameter = scope.parameters.find((candidate) => nameOf(candidate.name) === name);
        if (parameter) return parameter;
      }
      if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isCaseClause(scope)) {
        const found = declaredIn(scope.statements, name);
        if (found) return found;
      }
      if (ts.isSourceFile(scope)) return this.imported(scope, name);
    }
  }

  private imported(source: ts.SourceFile, name: string): Declaration {
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      const specifier = bindings.elements.find((element) => element.name.text === name);
      if (specifier)
        return this.exported(
          this.resolveModule(source, statement.moduleSpecifier.text),
          (specifier.propertyName ?? specifier.name).text,
        );
    }
    throw new NotEvaluable();
  }

  private exported(source: ts.SourceFile, name: string): Declaration {
    const own = declaredIn(source.statements, name);
    if (own) return own;
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause))
        continue;
      const specifier = statement.exportClause.elements.find((element) => element.name.text === name);
      if (!specifier) continue;
      const original = (specifier.propertyName ?? specifier.name).text;
      return statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? this.exported(this.resolveModule(source, statement.moduleSpecifier.text), original)
        : this.imported(source, original);
    }
    throw new NotEvaluable();
  }

  private resolveModule(from: ts.SourceFile, specifier: string): ts.SourceFile {
    const target = specifier.startsWith('@/')
      ? path.join(repositoryRoot, 'src', specifier.slice(2))
      : path.resolve(path.dirname(from.fileName), specifier);
    const source = this.files.get(target);
    if (!source) throw new NotEvaluable();
    return source;
  }

  /** The calls of a named function (a declaration, or a function assigned to a constant) that reach it by name. */
  private callsOf(callable: Callable): ts.CallExpression[] {
    const declaration = ts.isFunctionDeclaration(callable)
      ? callable
      : ts.isVariableDeclaration(callable.parent)
        ? callable.parent
        : undefined;
    const name = nameOf(declaration?.name);
    if (!declaration || !name) return [];
    const reaches = (use: ts.Identifier) => {
      try {
        return this.declarationOf(use) === declaration;
      } catch (error) {
        if (error instanceof NotEvaluable) return false;
        throw error;
      }
    };
    // Passed on as a value, the helper is called where no scan can see: its raises cannot be told.
    if ((this.passedByName.get(name) ?? []).some(reaches)) return [];
    return (this.callsByName.get(name) ?? []).filter((call) => reaches(call.expression as ts.Identifier));
  }
}

function listed<T>(lists: Map<string, T[]>, name: string): T[] {
  let list = lists.get(name);
  if (!list) lists.set(name, (list = []));
  return list;
}

/** An identifier used as a value other than by calling it: not a callee, declaration, property name or import. */
function isPassed(identifier: ts.Identifier): boolean {
  const parent = identifier.parent;
  if (ts.isCallExpression(parent) && parent.expression === identifier) return false;
  if (ts.isPropertyAccessExpression(parent) && parent.name === identifier) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === identifier) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent)) return false;
  if (ts.isTypeReferenceNode(parent) || ts.isQualifiedName(parent)) return false;
  const declares =
    (ts.isFunctionDeclaration(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isInterfaceDeclaration(parent) ||
      ts.isTypeAliasDeclaration(parent) ||
      ts.isBindingElement(parent)) &&
    parent.name === identifier;
  return !declares;
}

function siteOf(node: ts.Node): string {
  const source = node.getSourceFile();
  const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  return `${path.relative(repositoryRoot, source.fileName)}:${String(line)}`;
}

function isSchema(element: ts.ObjectLiteralElementLike): boolean {
  return ts.isPropertyAssignment(element) && ts.isObjectLiteralExpression(unwrap(element.initializer));
}

function isCallable(node: ts.Node): node is Callable {
  return ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

function isConst(declaration: ts.VariableDeclaration): boolean {
  return ts.isVariableDeclarationList(declaration.parent) && (declaration.parent.flags & ts.NodeFlags.Const) !== 0;
}

function declaredIn(statements: ts.NodeArray<ts.Statement>, name: string): Declaration | undefined {
  for (const statement of statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      const found = statement.declarationList.declarations.find((declaration) => nameOf(declaration.name) === name);
      if (found) return found;
    }
  }
  return undefined;
}
