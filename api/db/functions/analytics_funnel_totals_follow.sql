CREATE OR REPLACE FUNCTION analytics_funnel_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_funnel_totals AS t (site_id, day, visits, signups, activations, first_messages, first_purchases)
  VALUES (NEW.site_id, NEW.day,
          NEW.visits - CASE WHEN TG_OP = 'UPDATE' THEN OLD.visits ELSE 0 END,
          NEW.signups - CASE WHEN TG_OP = 'UPDATE' THEN OLD.signups ELSE 0 END,
          NEW.activations - CASE WHEN TG_OP = 'UPDATE' THEN OLD.activations ELSE 0 END,
          NEW.first_messages - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_messages ELSE 0 END,
          NEW.first_purchases - CASE WHEN TG_OP = 'UPDATE' THEN OLD.first_purchases ELSE 0 END)
  ON CONFLICT (site_id, day) DO UPDATE SET visits = t.visits + excluded.visits, signups = t.signups + excluded.signups,
    activations = t.activations + excluded.activations, first_messages = t.first_messages + excluded.first_messages,
    first_purchases = t.first_purchases + excluded.first_purchases;
  RETURN NULL;
END;
$$;
