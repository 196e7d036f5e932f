/**
 * The answer for `key` read once and kept in `answers` (a failure is dropped, for the next request to retry); beyond
 * `max` the oldest goes: a person clicking through objects asks again for the last few, never for thousands.
 */
export function keptAnswer<T>(
  answers: Map<string, Promise<T>>,
  key: string,
  max: number,
  read: () => Promise<T>,
): Promise<T> {
  let answer = answers.get(key);
  if (!answer) {
    if (answers.size >= max) answers.delete(answers.keys().next().value!);
    answer = read();
    answers.set(key, answer);
    answer.catch(() => answers.get(key) === answer && answers.delete(key));
  }
  return answer;
}
