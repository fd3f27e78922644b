// The console's side of plugin UIs: which active plugins bring a UI bundle (and what it contributes where), and the
// bundle itself, served from the stored archive of the version that runs — validated on the way out (once per archive
// digest), never from disk, with a type that lets the browser import it as a module. The console loads these before it builds its
// routes and wraps every contribution in an error boundary (ui/plugin-ui/).
import type { TrpcContext } from '@/modules/kernel/access/index.ts';
import { checkAccess } from '@/modules/kernel/access/index.ts';
import { notFoundProblem, ProblemError } from '@/modules/kernel/core/index.ts';
import { listArchives, listPlugins, readArchiveBytes, sha256Of } from './store/plugin-store.ts';
import { hostCatalogueOf, validateStoredArchive, type HostCatalogue } from './validate-stored.ts';
import type { PluginManifest } from '../validation/manifest.ts';

type Runtime = TrpcContext['runtime'];

export async function listUiBundles(runtime: Runtime) {
  const [rows, archives] = await Promise.all([listPlugins(runtime.prisma), listArchives(runtime.prisma)]);
  return rows
    .filter((row) => row.state === 'ACTIVE')
    .flatMap((row) => {
      const manifest = archives.find((archive) => archive.pluginId === row.id && archive.version === row.version)
        ?.manifest as PluginManifest | undefined;
      if (!manifest?.ui) return [];
      return [
        {
          id: row.id,
          name: manifest.name,
          version: row.version,
          url: `/api/v1/plugin-ui/${row.id}/${encodeURIComponent(row.version)}/ui.js`,
          contributions: manifest.uiContributions,
          settings: manifest.settings.map((setting) => setting.key),
        },
      ];
    });
}

/**
 * Bundles already validated, by plugin, version and the archive's digest: every console page load asks for each
 * active bundle, and validating the whole archive (inflating every entry, parsing both bundles) each time costs far
 * more than hashing the stored bytes. A changed archive has another digest and is validated again.
 */
const validatedBundles = new Map<string, Buffer | undefined>();
const VALIDATED_KEPT = 32;

function uiSourceOf(bytes: Uint8Array, key: string, host: HostCatalogue): Buffer | undefined {
  const digestKey = `${key}:${sha256Of(bytes)}`;
  if (validatedBundles.has(digestKey)) return validatedBundles.get(digestKey);
  const { manifest, files } = validateStoredArchive(bytes, host);
  const source = manifest.ui ? files.get(manifest.ui) : undefined;
  const kept = source ? Buffer.from(source) : undefined;
  if (validatedBundles.size >= VALIDATED_KEPT) validatedBundles.delete(validatedBundles.keys().next().value ?? '');
  validatedBundles.set(digestKey, kept);
  return kept;
}

const BUNDLE_PATH = /^\/api\/v1\/plugin-ui\/([a-z][a-z0-9-]{2,31})\/([^/]+)\/ui\.js$/;

/** GET /api/v1/plugin-ui/<id>/<version>/ui.js for any signed-in user, while that version is the active one. */
export async function serveUiBundle(request: Request, context: TrpcContext): Promise<Response> {
  await checkAccess({
    access: 'authenticated',
    isMutation: false,
    principal: context.principal,
    headers: request.headers,
    allowedBeforePasswordChange: false,
    globalPermissions: context.globalPermissions,
  });
  const [, id = '', version = ''] = BUNDLE_PATH.exec(new URL(request.url).pathname) ?? [];
  const { runtime } = context;
  const row = (await listPlugins(runtime.prisma)).find((candidate) => candidate.id === id);
  const wanted = decodeURIComponent(version);
  const bytes =
    row?.state === 'ACTIVE' && row.version === wanted ? await readArchiveBytes(runtime.prisma, id, wanted) : undefined;
  if (!bytes) throw new ProblemError(notFoundProblem('No such plugin UI bundle.'));
  const source = uiSourceOf(bytes, `${id}@${wanted}`, hostCatalogueOf(runtime.registry));
  if (!source) throw new ProblemError(notFoundProblem('No such plugin UI bundle.'));
  return new Response(new Uint8Array(source), {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      // The URL names the version: a new version is a new URL.
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
