import type { NextConfig } from "next";

const config: NextConfig = {
  // Native and server-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@node-rs/argon2"],
  poweredByHeader: false,
  // Lets several builds live side by side (e.g. tests next to a running instance).
  distDir: process.env.SWITCHBOARD_DIST_DIR || ".next",
};

export default config;
