import { migrate } from "~/db/migrate.server";
migrate(process.argv[2]!).then((r) => console.log(JSON.stringify(r)));
