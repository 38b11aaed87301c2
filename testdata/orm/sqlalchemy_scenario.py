"""An SQLAlchemy 1.4 ORM scenario against a MySQL-protocol server.

Usage: sqlalchemy_scenario.py HOST PORT DRIVER   (DRIVER: pymysql or mysqldb)

Each step prints "ok <name>" or "FAIL <name>: <why>"; the exit status is
the number of failed steps. Run by sqlfront's TestSQLAlchemyScenario
against HandlerDB (and, to record what MariaDB does, against the anchor).
"""
import sys

import sqlalchemy as sa
from sqlalchemy import orm

host, port, driver = sys.argv[1], int(sys.argv[2]), sys.argv[3]
base = "mysql+%s://root@%s:%d" % (driver, host, port)
db = "sa_" + driver
with sa.create_engine(base + "/").connect() as c:
    c.execute(sa.text("DROP DATABASE IF EXISTS %s" % db))
    c.execute(sa.text("CREATE DATABASE %s" % db))
engine = sa.create_engine(base + "/" + db + "?charset=utf8mb4")
Base = orm.declarative_base()

post_tags = sa.Table("post_tags", Base.metadata,
                     sa.Column("post_id", sa.ForeignKey("posts.id"), primary_key=True),
                     sa.Column("tag_id", sa.ForeignKey("tags.id"), primary_key=True))


class User(Base):
    __tablename__ = "users"
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(50), nullable=False, unique=True)
    karma = sa.Column(sa.Integer, nullable=False, default=0)
    prefs = sa.Column(sa.JSON)
    posts = orm.relationship("Post", back_populates="author", cascade="all, delete-orphan")


class Post(Base):
    __tablename__ = "posts"
    id = sa.Column(sa.Integer, primary_key=True)
    user_id = sa.Column(sa.ForeignKey("users.id"), nullable=False)
    title = sa.Column(sa.String(100), nullable=False)
    author = orm.relationship("User", back_populates="posts")
    tags = orm.relationship("Tag", secondary=post_tags, back_populates="posts")


class Tag(Base):
    __tablename__ = "tags"
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(30), unique=True)
    posts = orm.relationship("Post", secondary=post_tags, back_populates="tags")


failed = 0


def step(name, fn):
    global failed
    try:
        fn()
        print("ok", name)
    except Exception as e:  # a failed assertion or a server error
        failed += 1
        print("FAIL %s: %r" % (name, e))


Base.metadata.create_all(engine)
Session = orm.sessionmaker(engine)


def dialect():
    assert engine.dialect.is_mariadb, "not seen as MariaDB: %r" % (engine.dialect.server_version_info,)


def create():
    with Session.begin() as s:
        py, sq = Tag(name="python"), Tag(name="sql")
        ann = User(name="ann", prefs={"theme": "dark", "n": 1})
        bob = User(name="bob", prefs=[1, 2])
        ann.posts = [Post(title="subquery_1", tags=[py, sq]), Post(title="a_b", tags=[sq])]
        bob.posts = [Post(title="axb", tags=[py])]
        s.add_all([ann, bob])
    with Session() as s:
        ann = s.query(User).filter_by(name="ann").one()
        assert [p.title for p in ann.posts] == ["subquery_1", "a_b"], ann.posts
        assert sorted(t.name for t in ann.posts[0].tags) == ["python", "sql"]
        for p in ann.posts:  # the join table holds the ids the inserts answered
            for t in p.tags:
                assert p in t.posts


def rollback():
    s = Session()
    s.add(User(name="carl"))
    s.flush()
    s.rollback()
    assert s.query(User).filter_by(name="carl").count() == 0, "rollback kept the row"
    s.close()


def savepoint():
    with Session() as s:
        s.add(User(name="dora"))
        nested = s.begin_nested()
        s.add(User(name="eve"))
        s.flush()
        nested.rollback()
        s.commit()
    with Session() as s:
        names = sorted(u.name for u in s.query(User))
        assert names == ["ann", "bob", "dora"], names


def like():
    with Session() as s:
        got = sorted(p.title for p in s.query(Post).filter(Post.title.like("subquer%")))
        assert got == ["subquery_1"], got
        got = sorted(p.title for p in s.query(Post).filter(Post.title.like("a\\_b")))
        assert got == ["a_b"], got
        got = sorted(p.title for p in s.query(Post).filter(Post.title.like("A%", escape="\\")))
        assert got == ["a_b", "axb"], got


def integrity():
    with Session() as s:
        s.add(User(name="ann"))
        try:
            s.commit()
        except sa.exc.IntegrityError:
            s.rollback()
        else:
            raise AssertionError("duplicate name accepted")


def json():
    with Session() as s:
        ann = s.query(User).filter_by(name="ann").one()
        assert ann.prefs == {"theme": "dark", "n": 1}, ann.prefs
        got = s.query(User.name).filter(User.prefs["theme"].as_string() == "dark").all()
        assert got == [("ann",)], got


def aggregates():
    with Session() as s:
        rows = (s.query(User.name, sa.func.count(Post.id))
                .join(Post).group_by(User.name).order_by(User.name).all())
        assert rows == [("ann", 2), ("bob", 1)], rows
        sub = s.query(Post.user_id).filter(Post.title.like("a%")).subquery()
        got = sorted(u.name for u in s.query(User).filter(User.id.in_(sa.select(sub))))
        assert got == ["ann", "bob"], got
        got = s.query(User.name).filter(~User.posts.any()).all()
        assert got == [("dora",)], got


def update_delete():
    with Session.begin() as s:
        s.query(User).filter(User.posts.any(Post.title == "axb")).update(
            {User.karma: User.karma + 5}, synchronize_session=False)
    with Session.begin() as s:
        assert s.query(User.karma).filter_by(name="bob").scalar() == 5
        bob = s.query(User).filter_by(name="bob").one()
        bob.posts[0].tags = []
        s.delete(bob)
    with Session() as s:
        assert s.query(Post).count() == 2
        assert s.query(User).count() == 2


for name, fn in [("dialect", dialect), ("create", create), ("rollback", rollback), ("savepoint", savepoint),
                 ("like", like), ("integrity", integrity), ("json", json), ("aggregates", aggregates),
                 ("update_delete", update_delete)]:
    step(name, fn)
sys.exit(failed)
