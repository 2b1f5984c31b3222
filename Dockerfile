# syntax=docker/dockerfile:1
# Spolu's container image (docs/deployment.md). Two stages: `build` installs every package and builds the pages;
# the image keeps what running needs: the production packages, the build, the TypeScript source server.ts runs
# through tsx, the migrations and the messages. It runs as the unprivileged `node` user of the base image, keeps its
# data in the /data volume and answers its health check on /readyz.
#
# CI cannot run containers: scripts/chroot-check.ts reads this file and runs its stages in a Debian chroot made by
# debootstrap (the RUN, COPY, WORKDIR, USER, ENV lines, then HEALTHCHECK and CMD). It understands what this file
# uses; keep to those instructions, or teach it the new one.

FROM node:20-bookworm-slim AS build
ENV NEXT_TELEMETRY_DISABLED=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
RUN chown node:node /app
USER node
COPY --chown=node:node package.json package-lock.json ./
# Dependencies' install scripts stay off, as package.json's allowScripts keeps them on a developer's machine.
# npm's download cache is kept between builds; every npm step mounts it (the mount point itself is root's).
RUN --mount=type=cache,target=/home/node/.npm,uid=1000,gid=1000 npm ci --ignore-scripts --no-audit --no-fund
COPY --chown=node:node . .
RUN npm run build
RUN --mount=type=cache,target=/home/node/.npm,uid=1000,gid=1000 \
    npm prune --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf .next/cache

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MEDIA_DIR=/data/media
WORKDIR /app
# Owned by root, so the server cannot change its own code.
COPY --from=build /app/package.json /app/tsconfig.json /app/next.config.ts /app/server.ts ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/server ./server
COPY --from=build /app/lib ./lib
COPY --from=build /app/db ./db
COPY --from=build /app/messages ./messages
COPY --from=build /app/i18n ./i18n
COPY --from=build /app/public ./public
RUN mkdir -p /data/media && chown -R node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm start` without npm: node itself is the container's main process, so `docker stop`'s SIGTERM reaches it and
# the server drains (SHUTDOWN_TIMEOUT_MS). No .env is read here: the container's environment is the configuration.
CMD ["node", "--import", "tsx", "server.ts"]
