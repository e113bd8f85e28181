import { existsSync } from "node:fs";
import path from "node:path";
import { mustRun } from "./child.js";
import { type PublishablePackage, tarballName } from "./publishable.js";

/**
 * `pnpm pack` one package into `destination` and return the tarball's path. pnpm applies
 * `publishConfig` and turns `workspace:^` into the dependency's version range, so the tarball is
 * what a registry would serve. Packing does not build: the built `dist/` must be there already.
 */
export function packPackage(pkg: PublishablePackage, destination: string): string {
  for (const entry of pkg.entries) {
    for (const file of [entry.types, entry.import]) {
      if (!existsSync(path.join(pkg.dir, file))) {
        throw new Error(`${pkg.name}: ${file} is missing; build the packages first (pnpm build)`);
      }
    }
  }
  mustRun("pnpm", ["pack", "--pack-destination", destination], { cwd: pkg.dir, timeoutMs: 120_000 });
  const tarball = path.join(destination, tarballName(pkg.name, pkg.version));
  if (!existsSync(tarball)) throw new Error(`${pkg.name}: pnpm pack wrote no ${path.basename(tarball)}`);
  return tarball;
}
