/** Where the group is mounted (functions/app.ts): the status resource of a batch is `${API_BATCHES_PATH}/<id>`. */
export const API_BATCHES_PATH = '/api/v1/credentials/batches';
