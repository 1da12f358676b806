#!/bin/sh
echo "The native Prisma schema engine is not used in Tandem: run 'npm run db:migrate' or 'npm run db:new-migration <name>'." >&2
exit 1
