// The `update_plan` tool: the model keeps a step list; each call replaces it and becomes a
// `plan_update` event for front-ends. The model only needs to hear that it was recorded.
import { z } from 'zod';
import { PlanItemSchema } from '../../protocol/index.js';
import type { Tool, ToolContext, ToolResult } from './tool.js';

const ArgsSchema = z.object({
  explanation: z.string().nullish(),
  plan: z.array(PlanItemSchema),
});

/** The `update_plan` tool: the model publishes its plan as a `plan_update` event. */
export function createPlanTool(): Tool {
  return {
    name: 'update_plan',
    description:
      'Updates the task plan.\n' +
      'Send an optional explanation and the whole list of steps, each with a status ' +
      '(pending, in_progress or completed). Keep at most one step in_progress at a time.',
    parameters: {
      type: 'object',
      properties: {
        explanation: { type: 'string' },
        plan: {
          type: 'array',
          description: 'The list of steps',
          items: {
            type: 'object',
            properties: {
              step: { type: 'string' },
              status: { type: 'string', description: 'One of: pending, in_progress, completed', enum: ['pending', 'in_progress', 'completed'] },
            },
            required: ['step', 'status'],
            additionalProperties: false,
          },
        },
      },
      required: ['plan'],
      additionalProperties: false,
    },
    async run(args: unknown, ctx: ToolContext): Promise<ToolResult> {
      const parsed = ArgsSchema.safeParse(args);
      if (!parsed.success) {
        return { output: `failed to parse function arguments: ${z.prettifyError(parsed.error)}`, success: false };
      }
      const { explanation, plan } = parsed.data;
      if (plan.filter((item) => item.status === 'in_progress').length > 1) {
        return { output: 'at most one step can be in_progress at a time', success: false };
      }
      ctx.emit({ type: 'plan_update', explanation: explanation ?? null, plan });
      return { output: 'Plan updated', success: true };
    },
  };
}
