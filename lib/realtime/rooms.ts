/** The room that receives everything meant for one user. */
export const userRoom = (userId: string) => `user:${userId}`;
