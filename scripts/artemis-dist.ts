// Fetches the pinned Apache ActiveMQ Artemis binary distribution through Maven (cached in ~/.m2) and unpacks it
// once into a cache folder. The broker test harness calls `ensureArtemisHome()`; CI runs this file before
// `npm test` so the download happens once, visibly, and not inside a test's timeout. Edit ARTEMIS_VERSION to move
// every test to another release.
//
//   node --import tsx scripts/artemis-dist.ts        prints the unpacked ARTEMIS_HOME
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ARTEMIS_VERSION = '2.44.0';
// Maven 3.8 defaults to dependency plugin 2.8, which cannot fetch a classified artifact without a pom: pin it.
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const ARTIFACT = `org.apache.activemq:apache-artemis:${ARTEMIS_VERSION}:tar.gz:bin`;

function mavenRepository(): string {
  return process.env.MAVEN_REPOSITORY ?? path.join(os.homedir(), '.m2', 'repository');
}

function cacheRoot(): string {
  return process.env.FLOTILLA_ARTEMIS_CACHE ?? path.join(os.homedir(), '.cache', 'flotilla', 'artemis');
}

export function artemisTarball(version = ARTEMIS_VERSION): string {
  return path.join(
    mavenRepository(),
    'org/apache/activemq/apache-artemis',
    version,
    `apache-artemis-${version}-bin.tar.gz`,
  );
}

/** Downloads the distribution into ~/.m2 unless it is already there. */
export function fetchArtemisTarball(): string {
  const tarball = artemisTarball();
  if (!existsSync(tarball)) {
    execFileSync('mvn', ['-B', '-q', `${DEPENDENCY_PLUGIN}:get`, `-Dartifact=${ARTIFACT}`, '-Dtransitive=false'], {
      stdio: 'inherit',
    });
  }
  if (!existsSync(tarball)) throw new Error(`Maven finished but ${tarball} is missing`);
  return tarball;
}

/** The unpacked ARTEMIS_HOME (contains bin/artemis), fetching and unpacking it on first use. */
export function ensureArtemisHome(): string {
  const home = path.join(cacheRoot(), ARTEMIS_VERSION, `apache-artemis-${ARTEMIS_VERSION}`);
  if (existsSync(path.join(home, 'bin', 'artemis'))) return home;
  const tarball = fetchArtemisTarball();
  // Unpack beside the target and rename, so a half-unpacked folder (killed run) is never taken for a good one,
  // and two test workers racing here both end with a complete copy.
  const staging = path.join(cacheRoot(), `${ARTEMIS_VERSION}.unpacking-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', staging]);
  mkdirSync(path.dirname(home), { recursive: true });
  try {
    renameSync(path.join(staging, `apache-artemis-${ARTEMIS_VERSION}`), home);
  } catch (error) {
    if (!existsSync(path.join(home, 'bin', 'artemis'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return home;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(ensureArtemisHome());
}
