"""str() and repr() of DataTypes, and print_schema of a table with every type."""
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

types = [DataTypes.INT(), DataTypes.BIGINT(False), DataTypes.DECIMAL(10, 2), DataTypes.CHAR(3),
         DataTypes.VARCHAR(5), DataTypes.STRING(), DataTypes.TIMESTAMP(3),
         DataTypes.TIMESTAMP_LTZ(3), DataTypes.ARRAY(DataTypes.INT()),
         DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), DataTypes.BYTES(), DataTypes.DATE(),
         DataTypes.TIME(), DataTypes.BOOLEAN(), DataTypes.DOUBLE(), DataTypes.FLOAT(),
         DataTypes.TINYINT(), DataTypes.SMALLINT(),
         DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT()),
                        DataTypes.FIELD('b', DataTypes.STRING())])]
for t in types:
    print(str(t), '|', repr(t))
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
fields = [DataTypes.FIELD('c%d' % i, t) for i, t in enumerate(types)]
t_env.from_elements([], DataTypes.ROW(fields)).print_schema()
