import { env, publicOrigin } from "@/lib/env";

/** The app's origin for links in messages: SWITCHBOARD_URL / NEXTAUTH_URL, else localhost on PORT. */
export const appOrigin = () => publicOrigin() ?? `http://localhost:${env().PORT}`;

export const absolute = (path: string) => `${appOrigin()}${path}`;
