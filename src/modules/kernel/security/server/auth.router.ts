import { z } from 'zod';
import { moduleProcedure, requireCsrfToken, router } from '@/modules/kernel/access/index.ts';
import { recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import { endSession, readCookie, SESSION_COOKIE, sessionCookies } from './sessions.ts';
import { enabledSignInProviders, signIn } from './sign-in.service.ts';

const procedure = moduleProcedure('security');

const providerSchema = z.object({
  id: z.string(),
  kind: z.enum(['credential', 'redirect']),
  label: z.string(),
  startPath: z.string().optional(),
});

export const authRouter = router({
  providers: procedure('public')
    .meta({
      openapi: {
        method: 'GET',
        path: '/auth/providers',
        tags: ['auth'],
        summary:
          'Sign-in providers: credential ones and redirect ones with their startPath (bearer providers are not listed)',
        protect: false,
      },
    })
    .input(z.void())
    .output(z.array(providerSchema))
    .query(({ ctx }) =>
      enabledSignInProviders(ctx.runtime.registry).map((provider) =>
        provider.kind === 'redirect'
          ? { id: provider.id, kind: provider.kind, label: provider.label, startPath: provider.startPath }
          : { id: provider.id, kind: provider.kind, label: provider.label },
      ),
    ),

  login: procedure('public')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/login',
        tags: ['auth'],
        summary: 'Sign in with a credential provider (default local); sets the session cookie',
        protect: false,
      },
      dryRun: 'refused',
    })
    .input(
      z.object({
        username: z.string().min(1).max(200),
        password: z.string().min(1).max(1_000),
        provider: z.string().min(1).max(100).optional(),
      }),
    )
    .output(
      z.object({
        user: z.object({ id: z.string(), username: z.string(), mustChangePassword: z.boolean() }),
        csrfToken: z.string(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await signIn(ctx.runtime, ctx.request, {
        ...input,
        userAgent: ctx.http.headers.get('user-agent'),
      });
      for (const cookie of sessionCookies(result.session, ctx.http.secure))
        ctx.responseHeaders.append('Set-Cookie', cookie);
      return { user: result.user, csrfToken: result.session.csrfToken };
    }),

  logout: procedure('public')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/logout',
        tags: ['auth'],
        summary: 'End the current session',
        protect: false,
      },
      dryRun: 'refused',
    })
    .input(z.object({}).optional())
    .output(z.object({ signedOut: z.boolean() }))
    .mutation(async ({ ctx }) => {
      // Public, so an expired session can still clear its cookies; but ending a live session is a change made with
      // the session cookie, and like every other one it must echo the CSRF token.
      requireCsrfToken(ctx.principal, ctx.http.headers);
      const token = readCookie(ctx.http.headers, SESSION_COOKIE);
      const signedOut = token ? await endSession(ctx.runtime.prisma, token) : false;
      for (const cookie of sessionCookies(undefined, ctx.http.secure)) ctx.responseHeaders.append('Set-Cookie', cookie);
      if (signedOut)
        await recordAuditEvent(ctx.runtime.prisma, ctx.request, { action: 'auth.sign-out' }, { outcome: 'SUCCEEDED' });
      return { signedOut };
    }),
});
